/** Objects and arrays in a request body nest at most this many levels below the body itself. */
export const MAX_JSON_DEPTH = 64;
