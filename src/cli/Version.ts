/** The program's version (light: no imports). */
export const VERSION = "0.1.0"
