export { parseRule, type DqxCheck, type ParseOutcome } from './parse';
export { explainCheck } from './explain';
export { suggestions } from './suggest';
