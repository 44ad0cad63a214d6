/**
 * Text analysis shared by the products (kuromoji for Japanese, stemming for English).
 * Modules not listed here are internal: tests reach them as `@convo/text/internal/<path>`.
 */
export * from './analyzer.js';
export * from './budget.js';
export { compactTargetMap, unpackKuromojiDictionary } from './kuromoji-dictionary.js';
export * from './pieces.js';
export * from './wordnet.js';
export * from './edict.js';
