import { beforeAll, describe, expect, it } from 'vitest';
import { answerSpec, preloadContentAnalyzer, reviewAnswer, type ReviewInput } from '@convo/forms';
import { extractDate } from '@convo/forms/internal/nlu/date-values';
import { findNumbers } from '@convo/forms/internal/nlu/numbers';
import { findOptions, matchOption } from '@convo/forms/internal/nlu/options';
import { answerPolarity } from '@convo/forms/internal/nlu/polarity';
import { normalizeText } from '@convo/forms/internal/nlu/text';
import { timeSlotPicks } from '@convo/forms/internal/nlu/time-values';
import type { FactDefinition, FormField } from '@convo/contract';

/**
 * The classes of answer the blind batches 8 and 9 found (each stands for many forms, none is one form's special case):
 * identifiers, not knowing said at the end in Japanese, things' names, month-precision dates, clock-span options,
 * declining, "No, I don't know", "grand", era months, hiragana names.
 */

const NOW = new Date('2026-11-24T10:00:00.000Z');

function field(label: string, opts: { required?: boolean; intent?: string | null } = {}): FormField {
  return { id: 'f1', fieldId: 'field_1', label, intent: opts.intent ?? null, required: opts.required ?? true, sortOrder: 1 };
}

function fact(factKey: string, text: string, doneCriteria = ''): FactDefinition {
  return { id: 'k1', formFieldId: 'f1', factKey, fact: text, doneCriteria, questioningHints: null };
}

function review(partial: Partial<ReviewInput> & Pick<ReviewInput, 'field' | 'answers'>) {
  return reviewAnswer({ facts: [], language: 'en', country: 'US', now: NOW, timezone: 'UTC', ...partial });
}

beforeAll(async () => {
  await preloadContentAnalyzer();
});

describe('identifiers are codes', () => {
  const serial = { field: field('Serial number'), facts: [fact('serial_number', "The laptop's serial number (S/N)")] };

  it('records the code itself, however it is said', () => {
    expect(review({ ...serial, answers: ["It's 5CG3214XKQ"] }).field_value).toBe('5CG3214XKQ');
    const customer = {
      field: field('お客さま番号（任意）', { required: false }),
      facts: [fact('customer_number', 'お客さま番号 10桁', '10桁の数字')],
    };
    expect(
      review({
        ...customer,
        answers: ['検針票を今探してて…あ、ありました。お客さま番号、1207 3365 49 って書いてあります。'],
        language: 'ja',
        country: 'JP',
      }).field_value,
    ).toBe('1207336549');
    expect(review({ field: field('Policy number'), answers: ['HX-99812-B'] }).field_value).toBe('HX-99812-B');
  });

  it('is not satisfied by an account of why there is no code', () => {
    const outcome = review({
      ...serial,
      answers: [
        "The sticker on the bottom has completely worn off and the laptop won't turn on, so I can't look it up in settings either.",
      ],
    });
    expect(outcome.passed).toBe(false);
    expect(outcome.feedback).toContain('no number or code');
  });

  it('treats a version as a code', () => {
    const version = {
      field: field('App version'),
      facts: [fact('app_version', 'Version of the app', 'Version number as shown in Help > About')],
    };
    expect(review({ ...version, answers: ['It says 4.12.1 in the About box.'] }).field_value).toBe('4.12.1');
    expect(
      review({ ...version, answers: ["I can't check - the app crashes before it even opens, so I can't get to the About screen."] }).passed,
    ).toBe(false);
  });
});

describe('not knowing, wherever it is said', () => {
  const title = { field: field('Title of your talk'), facts: [fact('talk_title', 'The title of the talk')] };

  it('a Japanese reply that closes on not knowing gives reasons, not the answer', () => {
    const policy = { field: field('証券番号'), facts: [fact('policy', '保険証券に記載の証券番号')] };
    for (const answer of [
      '証券が見当たらなくて…車検証と一緒にしていたはずなんですが、今すぐには分かりません。',
      '夫の仕事の都合次第なので、今はまだ決められません。',
    ]) {
      expect(review({ ...policy, answers: [answer], language: 'ja', country: 'JP' }).passed).toBe(false);
    }
    // Doubting a question inside the answer, or something it names, still answers.
    const symptom = { field: field('症状'), facts: [fact('symptom', '症状の内容')] };
    expect(review({ ...symptom, answers: ['右に寄るんですが、関係あるかは分かりません。'], language: 'ja', country: 'JP' }).passed).toBe(
      true,
    );
    expect(review({ ...symptom, answers: ['頭痛がひどいです。原因は分かりません。'], language: 'ja', country: 'JP' }).passed).toBe(true);
  });

  it('"I don\'t have a title yet" opening a reply is no title; "I don\'t have a laptop yet" later is a reason', () => {
    expect(
      review({
        ...title,
        answers: ["Hmm, I don't have a title yet. It's about on-call burnout, but I haven't worked out what to call it."],
      }).passed,
    ).toBe(false);
    const why = {
      field: field('Business justification'),
      facts: [fact('justification', 'Why the equipment is needed', 'A concrete business reason')],
    };
    expect(
      review({ ...why, answers: ["I'm a contractor starting on the data migration project and I don't have a company laptop yet."] })
        .passed,
    ).toBe(true);
  });

  it('「思い出せません」 and a self-question are not knowing', () => {
    const how = { field: field('友の会を知ったきっかけ', { required: false }), facts: [fact('how_heard', '友の会を知ったきっかけ')] };
    expect(review({ ...how, answers: ['うーん、何で知ったんだったかな…覚えていないです。'], language: 'ja', country: 'JP' }).passed).toBe(
      false,
    );
    expect(review({ ...how, answers: ['ごめんなさい、どうしても思い出せません。'], language: 'ja', country: 'JP' }).passed).toBe(false);
  });

  it('"No, sorry, I don\'t know" answers no yes/no question; remembering afterwards does', () => {
    expect(answerPolarity("No, sorry, I genuinely don't know. I'd have to ask her and she's not answering.")).toBeNull();
    expect(answerPolarity("No, I don't know of any")).toBe('no');
    const chip = { field: field('Microchipped?'), facts: [fact('microchipped', 'Whether the pet is microchipped.', 'Yes or no.')] };
    const remembered =
      "Oh, I'm not sure rabbits can be chipped? Oh, actually yes, the vet did do it when he was neutered last year. So yes.";
    expect(review({ ...chip, answers: [remembered] }).field_value).toBe('yes');
  });
});

describe('what a fact asks for', () => {
  it("a thing's name is no person's name", () => {
    const pet = {
      field: field("Pet's name", { intent: 'The name the animal answers to' }),
      facts: [fact('pet_name', "The pet's name.", 'The name the pet responds to.')],
    };
    expect(review({ ...pet, answers: ['Biscuit'] }).passed).toBe(true);
    const event = {
      field: field('Conference / event attended'),
      facts: [fact('conference_name', 'Which conference, trade show or event the trip was for', 'Name of the event')],
    };
    expect(answerSpec(event.facts[0]!, event.field).type).toBe('text');
    expect(review({ ...event, answers: ['KubeCon EU'] }).passed).toBe(true);
  });

  it('年月 as the head noun and "month and year" ask for a month', () => {
    const start = fact('start_month', '会員期間を開始する年月。', '年と月が分かる。');
    expect(answerSpec(start, field('入会希望月')).type).toBe('date');
    expect(
      review({ field: field('入会希望月'), facts: [start], answers: ['2025年5月からにしたいです。'], language: 'ja', country: 'JP' })
        .field_value,
    ).toBe('2025-05');
    const noticed = fact('first_noticed', 'Date the reporter first saw the bug', 'A calendar date with day, month and year');
    expect(answerSpec(noticed, field('When did you first notice the problem?')).type).toBe('date');
    expect(answerSpec(fact('moved', 'Month and year you moved in'), field('Moved in')).type).toBe('date');
  });

  it('a remarks field told "nothing" is left blank, whatever its criteria accept', () => {
    const notes = {
      field: field('Anything else we should know?', { required: false }),
      facts: [fact('notes', 'Behavior or health notes', "Any notes, or owner says there's nothing")],
    };
    expect(review({ ...notes, answers: ['nope'] }).skipped).toBe(true);
  });
});

describe('choices', () => {
  it('reads a capitalised option that starts like a determiner, and cuts the predicate after a list', () => {
    expect(findOptions(['Recorded as one of: Every time, Sometimes, Happened once']).options).toEqual([
      'Every time',
      'Sometimes',
      'Happened once',
    ]);
    expect(findOptions(['One of Windows, macOS, Linux, iOS or Android is identified.']).options).toEqual([
      'Windows',
      'macOS',
      'Linux',
      'iOS',
      'Android',
    ]);
    expect(findOptions(['Conference / event attended']).options).toEqual([]);
    expect(findOptions(['Size (S/M/L/XL)']).options).toEqual(['S', 'M', 'L', 'XL']);
  });

  it('hyphen or space, tilde or wave dash: one spelling', () => {
    expect(matchOption('self employed, I run a small carpentry business', ['Employed', 'Self-employed', 'Student'])).toEqual({
      option: 'Self-employed',
    });
    expect(matchOption("I'm employed full time.", ['Employed', 'Self-employed', 'Student'])).toEqual({ option: 'Employed' });
    expect(matchOption('１３時～１５時', ['9時〜12時', '13時〜15時', '15時〜17時'])).toEqual({ option: '13時〜15時' });
  });

  it('clock-span options are picked by the span, a time inside one, or the part of the day', () => {
    const ja = ['9時〜12時', '13時〜15時', '15時〜17時'];
    expect(timeSlotPicks('午前中は荷物の搬入があるので、午後の遅めの時間、３時から５時の枠がいいです。', ja, 'ja')).toEqual(['15時〜17時']);
    expect(timeSlotPicks('午前の枠で', ja, 'ja')).toEqual(['9時〜12時']);
    expect(timeSlotPicks('2時頃', ja, 'ja')).toEqual(['13時〜15時']);
    expect(matchOption('午後で', ja)).toEqual({ ambiguous: ['13時〜15時', '15時〜17時'] });
    const en = ['9am-12pm', '1pm-3pm', '3pm-5pm'];
    expect(timeSlotPicks('the morning one', en, 'en')).toEqual(['9am-12pm']);
    expect(timeSlotPicks('around 2pm', en, 'en')).toEqual(['1pm-3pm']);
    // Options that are not clock spans are left to the other rules.
    expect(timeSlotPicks('morning', ['Morning', 'Afternoon'], 'en')).toEqual([]);
  });

  it('the conclusion after a reason picks, not the option the reason mentions', () => {
    const reply =
      'I used my own Visa for everything because my corporate card had expired the week before, so that would be my personal card.';
    expect(matchOption(reply, ['Corporate card', 'Personal card', 'Cash'])).toEqual({ option: 'Personal card' });
  });
});

describe('yes/no from declining', () => {
  it.each([
    ['今回はやめておきます', 'no'],
    ['遠慮しておきます', 'no'],
    ['今回は見送ります', 'no'],
    ['素敵ですけれど、膝が悪くて長く立っていられないので、今回はやめておきます。', 'no'],
    ['遠慮なく使います', 'yes'],
    ['はい、参加します', 'yes'],
  ])('%s → %s', (reply, expected) => {
    expect(answerPolarity(reply)).toBe(expected);
  });
});

describe('numbers and dates', () => {
  it('"20 grand" is 20000; grand pianos are pianos', () => {
    expect(findNumbers(normalizeText('maybe 20 grand?')).map((n) => n.value)).toEqual(['20000']);
    expect(findNumbers(normalizeText('2 grand pianos')).map((n) => n.value)).toEqual(['2']);
  });

  it('R7.6 is June of 令和7', () => {
    expect(extractDate(normalizeText('R7.6'), { language: 'ja', now: NOW, timezone: 'Asia/Tokyo', requireYear: true }).value).toBe(
      '2025-06',
    );
  });

  it('a hiragana name before its noun says something', () => {
    const nursery = { field: field('第一希望の保育園名'), facts: [fact('first_choice', '最も入所を希望する保育園', '園名が一つ分かる')] };
    expect(review({ ...nursery, answers: ['あおぞら保育園です'], language: 'ja', country: 'JP' }).passed).toBe(true);
  });
});

describe('an optional code or note told there is none', () => {
  it('is skipped on a few words saying so, not on not knowing nor on a value', () => {
    const chip = { field: field('マイクロチップ番号', { required: false }), facts: [fact('microchip', 'マイクロチップの15桁の番号')] };
    expect(review({ ...chip, answers: ['入っていません'], language: 'ja', country: 'JP' })).toMatchObject({ passed: true, skipped: true });
    expect(review({ ...chip, answers: ["Don't have one"], language: 'en', country: 'JP' })).toMatchObject({ passed: true, skipped: true });
    expect(review({ ...chip, answers: ['思い出せません'], language: 'ja', country: 'JP' }).passed).toBe(false);
    expect(review({ ...chip, answers: ['392141000123456'], language: 'ja', country: 'JP' }).field_value).toBe('392141000123456');
  });
});

describe('a name said in a sentence, with its reading in brackets', () => {
  it('stores the name: the first sentence, without the reading, the honorific or the copula', () => {
    const owner = { field: field('飼い主様のお名前'), facts: [fact('owner', '飼い主の氏名')], language: 'ja' as const, country: 'JP' };
    expect(review({ ...owner, answers: ['清水 健二です。柴犬のコタロウを連れてきました'] }).field_value).toBe('清水 健二');
    expect(review({ ...owner, answers: ['高橋（たかはし）健一'] }).field_value).toBe('高橋健一');
    expect(review({ ...owner, answers: ['山田（やまだ）花子さんです'] }).field_value).toBe('山田花子');
    expect(review({ ...owner, answers: ['代表は私、中村 節子（なかむら せつこ）でございます。'] }).field_value).toBe('中村 節子');
    // A given name the dictionary may not know, written apart from the family name; a person named with an honorific.
    expect(review({ ...owner, answers: ['青木 大翔です'] }).field_value).toBe('青木 大翔');
    expect(review({ ...owner, answers: ['同じチームの森 健太さんにお願いしています'] }).field_value).toBe('森 健太');
  });
});
