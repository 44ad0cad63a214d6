/**
 * Building blocks of the topic patterns. English alternatives match whole
 * words case-insensitively; Japanese ones match anywhere, since Japanese does
 * not mark word boundaries.
 */

/** English alternatives as one case-insensitive pattern matching whole words. */
export function en(...alternatives: string[]): RegExp {
  return new RegExp(String.raw`\b(?:${alternatives.join('|')})\b`, 'gi');
}

/** Japanese alternatives as one pattern matching anywhere. */
export function ja(...alternatives: string[]): RegExp {
  return new RegExp(alternatives.join('|'), 'g');
}

/** A possessive before a person ("your parents", "the applicant's age"). */
export const YOUR = String.raw`(?:your|my|his|her|their|our|the applicant'?s)`;

/** "parent company", "sister element": organisations and trees have parents and siblings too. */
export const NOT_ORG = String.raw`(?!\s+(?:company|companies|firm|organi[sz]ations?|brand|site|project|element|elements|node|nodes|process|processes|directory|folder|class|component|window))`;
/** A tech compound after "child" or "children" is about software, not family ("child process"). */
export const NOT_TECH = String.raw`(?!\s+(?:process|processes|element|elements|node|nodes|component|components|thread|threads|table|tables|class|classes|object|objects|window|windows|widget|widgets|task|tasks|theme|route|routes|item|items|entity|entities))`;
