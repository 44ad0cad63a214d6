import { describe, expect, it } from 'vitest';
import { backgroundSpans, preferAsserted, retractedSpans } from '@convo/forms/internal/nlu/discourse';

const pieces = (text: string, spans: ReadonlyArray<readonly [number, number]>) => spans.map(([s, e]) => text.slice(s, e).trim());

describe('values taken back', () => {
  it.each([
    ['The total is £1,150, not £950.', ['£950']],
    ["Sorry, I said 24 - I'm actually 25 now.", ['24']],
    ['It started on January 25, not the 28th.', ['the 28th']],
    ['事故の時刻ですが、10時ではなく11時でした。', ['10時']],
    ['サイズはXLじゃなくてLでお願いします。', ['XL']],
    ['さっき3泊と言いましたが、2泊の間違いです。', ['さっき3泊']],
    ['The 14th. Actually no, make that the 15th.', ['The 14th', 'Actually no']],
  ])('%s', (text, taken) => {
    expect(pieces(text, retractedSpans(text))).toEqual(taken);
  });

  it('verb negation and comparatives take no value back', () => {
    expect(retractedSpans("I don't have 2 cars")).toEqual([]);
    expect(retractedSpans('not more than 3')).toEqual([]);
    expect(retractedSpans("I'm not sure")).toEqual([]);
  });
});

describe('background before the answer', () => {
  it.each([
    ['5泊6日の旅行なので、6日間借りたいです', ['5泊6日の旅行なので']],
    ['家が遠いから、バスを使います', ['家が遠いから']],
    ['I get off work at 5, so I would be there around 5:30.', ['I get off work at 5']],
    ['Because my visa expires on March 3, I need to move in by February 20.', ['Because my visa expires on March 3']],
    ['I need to move by February 20 because my visa expires on March 3.', ['because my visa expires on March 3']],
  ])('%s', (text, background) => {
    expect(pieces(text, backgroundSpans(text))).toEqual(background);
  });

  it('"3日前から" is "since", not a reason', () => {
    expect(backgroundSpans('3日前から喉が痛いです')).toEqual([]);
  });

  it('orders candidates: asserted first, background after, taken-back dropped', () => {
    const text = 'さっき3泊と言いましたが、週末なので2泊でお願いします';
    const at = (s: string) => [text.indexOf(s), text.indexOf(s) + s.length] as const;
    expect(preferAsserted(text, ['3泊', '週末', '2泊'], at)).toEqual(['2泊', '週末']);
  });
});
