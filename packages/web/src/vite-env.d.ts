/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The source repository the footer links to; unset hides the link. */
  readonly VITE_SOURCE_URL?: string;
}
