/** The schemas the tool tests need (the whole registry is heavier than they are). */
import { allSchemas } from "../../src/commands/schemas/index.js"

export const schemaSchemas = allSchemas()
