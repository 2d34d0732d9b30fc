extends Reference
# Checks made before sending: each returns null when the value is fine, else the error of the
# result, so nothing is sent that the server would refuse for a reason the game can see here.

const MAX_PLAYER_DATA_BYTES = 40960
const MAX_DEPTH = 64

const TYPE_NAMES = {
	TYPE_NIL: "null", TYPE_BOOL: "bool", TYPE_INT: "int", TYPE_REAL: "float", TYPE_STRING: "String",
	TYPE_VECTOR2: "Vector2", TYPE_RECT2: "Rect2", TYPE_VECTOR3: "Vector3",
	TYPE_TRANSFORM2D: "Transform2D", TYPE_PLANE: "Plane", TYPE_QUAT: "Quat", TYPE_AABB: "AABB",
	TYPE_BASIS: "Basis", TYPE_TRANSFORM: "Transform", TYPE_COLOR: "Color", TYPE_NODE_PATH: "NodePath",
	TYPE_RID: "RID", TYPE_OBJECT: "Object", TYPE_DICTIONARY: "Dictionary", TYPE_ARRAY: "Array",
	TYPE_RAW_ARRAY: "PoolByteArray", TYPE_INT_ARRAY: "PoolIntArray", TYPE_REAL_ARRAY: "PoolRealArray",
	TYPE_STRING_ARRAY: "PoolStringArray", TYPE_VECTOR2_ARRAY: "PoolVector2Array",
	TYPE_VECTOR3_ARRAY: "PoolVector3Array", TYPE_COLOR_ARRAY: "PoolColorArray",
}


static func name_error(value, field: String = "player_name"):
	if typeof(value) != TYPE_STRING or value.strip_edges() == "":
		var what := "a player name" if field == "player_name" else "a " + field.replace("_", " ")
		return error("InvalidParameter", "Please enter %s." % what, field)
	return null


static func score_error(score):
	if not typeof(score) in [TYPE_INT, TYPE_REAL] or is_nan(float(score)) or is_inf(float(score)):
		return error("InvalidParameter", "The score must be a number, not %s." % type_name(score), "score")
	return null


static func metadata_error(metadata):
	if typeof(metadata) != TYPE_DICTIONARY:
		return error("InvalidParameter", "Score metadata must be a Dictionary, not %s." % type_name(metadata), "metadata")
	var bad = json_error(metadata, "metadata")
	if bad != null:
		return bad
	return _metadata_values_error(metadata, "metadata")


# Metadata holds text, numbers, true/false and Dictionaries of them: the server refuses lists and null.
static func _metadata_values_error(value: Dictionary, path: String):
	for key in value:
		var inner = value[key]
		if typeof(inner) == TYPE_DICTIONARY:
			var bad = _metadata_values_error(inner, "%s.%s" % [path, key])
			if bad != null:
				return bad
		elif typeof(inner) == TYPE_NIL or typeof(inner) in [TYPE_ARRAY, TYPE_RAW_ARRAY, TYPE_INT_ARRAY, TYPE_REAL_ARRAY, TYPE_STRING_ARRAY]:
			var what := "null" if typeof(inner) == TYPE_NIL else "a list"
			return error("InvalidParameter", "%s.%s is %s: metadata holds text, numbers, true/false and Dictionaries." % [path, key, what], "%s.%s" % [path, key])
	return null


static func player_data_error(data):
	if typeof(data) != TYPE_DICTIONARY:
		return error("InvalidParameter", "Player data must be a Dictionary, not %s." % type_name(data), "player_data")
	var bad = json_error(data, "player_data")
	if bad != null:
		return bad
	var size := JSON.print(data).to_utf8().size()
	if size > MAX_PLAYER_DATA_BYTES:
		return error("PlayerDataTooLarge", "Player data is %d bytes as JSON; the limit is 40,960 bytes." % size, "player_data")
	return null


static func keys_error(keys):
	if not typeof(keys) in [TYPE_ARRAY, TYPE_STRING_ARRAY]:
		return error("InvalidParameter", "keys must be an Array of key names.", "keys")
	for key in keys:
		if typeof(key) != TYPE_STRING:
			return error("InvalidParameter", "keys must be an Array of key names.", "keys")
	return null


# The first value that JSON cannot hold (an engine object such as a Vector2, a Node or a
# Resource, a number that is not finite), named by its path.
static func json_error(value, path: String, depth: int = 0):
	if depth > MAX_DEPTH:
		return error("InvalidParameter", "%s nests deeper than %d levels." % [path, MAX_DEPTH], path)
	match typeof(value):
		TYPE_NIL, TYPE_BOOL, TYPE_INT, TYPE_STRING:
			return null
		TYPE_REAL:
			if is_nan(value) or is_inf(value):
				return error("InvalidParameter", "%s is not a finite number." % path, path)
			return null
		TYPE_ARRAY:
			for i in range(value.size()):
				var bad = json_error(value[i], "%s.%d" % [path, i], depth + 1)
				if bad != null:
					return bad
			return null
		TYPE_DICTIONARY:
			for key in value:
				if typeof(key) != TYPE_STRING:
					return error("InvalidParameter", "%s has a key that is not text (%s)." % [path, str(key)], path)
				var bad = json_error(value[key], "%s.%s" % [path, key], depth + 1)
				if bad != null:
					return bad
			return null
	return error("InvalidParameter", "%s holds a %s, which is not JSON: convert it to numbers or text first." % [path, type_name(value)], path)


static func type_name(value) -> String:
	if typeof(value) == TYPE_OBJECT:
		return value.get_class() if is_instance_valid(value) else "freed Object"
	return TYPE_NAMES.get(typeof(value), "value of type %d" % typeof(value))


static func error(code: String, message: String, field: String = "") -> Dictionary:
	var err := {"code": code, "message": message}
	if field != "":
		err["field"] = field
	return err


static func first(errors: Array):
	for err in errors:
		if err != null:
			return err
	return null
