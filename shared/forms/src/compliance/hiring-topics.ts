import { EEOC_TOPICS } from './eeoc-topics.js';
import { MHLW_TOPICS } from './mhlw-topics.js';
import type { ProhibitedTopic } from './topic-types.js';

/**
 * What fair-hiring guidance forbids asking an applicant, as patterns.
 *
 * Sources: Japan's Ministry of Health, Labour and Welfare (厚生労働省「公正な
 * 採用選考の基本」: matters not related to aptitude and ability — 本籍・出生地,
 * 家族, 住宅状況, 生活環境・家庭環境 — and matters of free thought and belief —
 * 宗教, 支持政党, 人生観・生活信条, 尊敬する人物, 思想, 労働組合・学生運動など
 * の社会運動, 購読新聞・雑誌・愛読書) and the US Equal Employment Opportunity
 * Commission's prohibited pre-employment inquiries (age, race and colour,
 * national origin and citizenship, religion, disability and medical
 * questions, sex / sexual orientation / gender identity, marital status,
 * children and pregnancy, genetic information).
 *
 * English patterns match whole words, case-insensitively; Japanese patterns
 * match anywhere, since Japanese does not mark word boundaries. Both are
 * applied to every text (a Japanese session may quote English and vice
 * versa). Each pattern is written to catch natural questions and statements
 * while leaving alone the lawful questions that share words with them — the
 * guards are commented where they are not obvious.
 */
export const DEFAULT_HIRING_TOPICS: readonly ProhibitedTopic[] = Object.freeze([...MHLW_TOPICS, ...EEOC_TOPICS]);
