// Codes `audit` produces: files it could not read as they are.
export const AUDIT_CODES = {
  audit_file_special: {
    owner: "audit",
    hint: "a skill holds only files and folders; remove the FIFO, socket or device",
  },
  audit_file_too_large: {
    owner: "audit",
    hint: "a skill has no need for a file this large; remove it, or audit it with the external scanner of your choice",
  },
  audit_scanner_failed: {
    owner: "audit",
    hint: "run the scanner command on the folder yourself: it must print a SARIF log on its standard output",
  },
  audit_code_unparsed: {
    owner: "audit",
    hint: "nothing to do unless you meant it as code: the line rules read it, which see less than the syntax analysis; check the block's language tag",
  },
  audit_file_unreadable: {
    owner: "audit",
    hint: "check the file's permissions, then audit again",
  },
} as const;
