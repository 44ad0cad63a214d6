/** The Unicode line-breaking algorithm (UAX #14), as pdfkit uses it; the package ships no types. */
declare module 'linebreak' {
  export default class LineBreaker {
    constructor(text: string);
    /** The next place a line may break (`required` after a hard line break), or null at the end. */
    nextBreak(): { position: number; required: boolean } | null;
  }
}
