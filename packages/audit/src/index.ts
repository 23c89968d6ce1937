export type { AuditFinding, AuditOptions, AuditReport, AuditSession } from "./audit.js";
export { analyzeCode, atOrAbove, auditTree, highestSeverity, startAudit } from "./audit.js";
export type { CodeLanguage, CodeParsers } from "./code/parsers.js";
export { CODE_LANGUAGES, createCodeParsers } from "./code/parsers.js";
export type { AuditRule, FileFacts, RuleMatch, Severity } from "./rules.js";
export { AUDIT_RULES, AUDIT_RULES_VERSION, SEVERITIES } from "./rules.js";
export { externalFindings } from "./scanner.js";
