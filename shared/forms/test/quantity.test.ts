import { beforeAll, describe, expect, it, vi } from 'vitest';
import { preloadJapanese } from '@convo/forms/internal/nlu/japanese';
import { findNumbers, parseKanji } from '@convo/forms/internal/nlu/numbers';
import { extractQuantity } from '@convo/forms/internal/nlu/quantity';
import { normalizeText } from '@convo/forms/internal/nlu/text';

/** What the reviewer would record: answers arrive normalized, the fact's words name the unit. */
function quantity(answer: string, ...unitTexts: string[]): string | null {
  return extractQuantity(normalizeText(answer), unitTexts).value;
}

function values(text: string): string[] {
  return findNumbers(normalizeText(text)).map((n) => n.value);
}

// Fresh module instances, whose dictionary is not loaded yet: unit files share modules
// (vitest.config.ts), so another file may have loaded it in these instances already.
describe('before the Japanese dictionary has loaded', () => {
  let fresh: {
    ready: () => boolean;
    values: (text: string) => string[];
    quantity: (answer: string, ...unitTexts: string[]) => string | null;
  };
  beforeAll(async () => {
    vi.resetModules();
    const [japanese, numbers, quantityModule, text] = await Promise.all([
      import('@convo/forms/internal/nlu/japanese'),
      import('@convo/forms/internal/nlu/numbers'),
      import('@convo/forms/internal/nlu/quantity'),
      import('@convo/forms/internal/nlu/text'),
    ]);
    fresh = {
      ready: japanese.japaneseReady,
      values: (t) => numbers.findNumbers(text.normalizeText(t)).map((n) => n.value),
      quantity: (answer, ...unitTexts) => quantityModule.extractQuantity(text.normalizeText(answer), unitTexts).value,
    };
  });

  it.each([
    ['三人です', ['3']],
    ['一泊', ['1']],
    ['十二か月', ['12']],
    ['五', ['5']],
    ['みんな一緒で十分です', []],
  ])('reads %j as %j', (text, expected) => {
    expect(fresh.ready()).toBe(false);
    expect(fresh.values(text)).toEqual(expected);
  });

  it('still prefers the counted unit', () => {
    expect(fresh.ready()).toBe(false);
    expect(fresh.quantity('5泊6日の旅行なので、6日間借りたいです', 'レンタル日数')).toBe('6');
    expect(fresh.quantity('すみません、さっき3泊と言いましたが、2泊の間違いです。', '宿泊数')).toBe('2');
  });
});

describe('with the Japanese dictionary', () => {
  beforeAll(async () => {
    await preloadJapanese();
  });

  describe('findNumbers', () => {
    it.each([
      ['1,200', ['1200']],
      ['1.5', ['1.5']],
      ['２人', ['2']],
      ['007', ['007']],
      ['sixteen years', ['16']],
      ['twenty-five', ['25']],
      ['three thousand two hundred', ['3200']],
      ['two and a half', ['2.5']],
      ['a dozen eggs', ['12']],
      ['half a dozen', ['6']],
      ['two dozen', ['24']],
      ['a couple of nights', ['2']],
      ['8万5千円', ['85000']],
      ['1億2000万', ['120000000']],
      ['1.5万', ['15000']],
      ['$45k', ['45000']],
      ['1.2 million', ['1200000']],
      ['二十五歳', ['25']],
      ['三つ', ['3']],
      ['二〇二五年', ['2025']],
      ['5 or 6', ['5', '6']],
      // A number word before a full stop.
      ['Friday and Saturday. Two.', ['2']],
      ['zero.', ['0']],
    ])('reads %j as %j', (text, expected) => {
      expect(values(text)).toEqual(expected);
    });

    it.each([
      ['一緒に行きます'],
      ['一番安いもの'],
      ['十分です'],
      ['千葉に住んでいます'],
      ['数人'],
      ['十数人'],
      ['数十人'],
      ['a few'],
      ['several'],
      ['first of all'],
      ['just a second'],
      ["I'm the one"],
      ['no one knows'],
      ['our portal only shows the weighted one'],
      ['model SW1A'],
    ])('finds no number in %j', (text) => {
      expect(values(text)).toEqual([]);
    });

    it('reads thousands grouped with spaces', () => {
      expect(values('70 000 $')).toEqual(['70000']);
      expect(values('1 200 000 yen')).toEqual(['1200000']);
      expect(values('3 rooms and 2 baths')).toEqual(['3', '2']);
    });

    it('keeps where each number was written', () => {
      expect(findNumbers('about 1,200 or 一泊')).toEqual([
        { value: '1200', text: '1,200', index: 6 },
        { value: '1', text: '一', index: 15 },
      ]);
    });

    it('parses kanji and mixed numerals', () => {
      expect(parseKanji('二十五')).toBe(25);
      expect(parseKanji('三千五百')).toBe(3500);
      expect(parseKanji('二〇二五')).toBe(2025);
      expect(parseKanji('五万')).toBe(50000);
      expect(parseKanji('8万5千')).toBe(85000);
      expect(parseKanji('1億2000万')).toBe(120000000);
    });
  });

  describe('1. numerals', () => {
    it.each([
      ['1,200', 'Number of units', '1200'],
      ['about 1.5', 'Weight (kg)', '1.5'],
      ['２人です', '人数', '2'],
      ['sixteen years', 'Years of experience', '16'],
      ['Twenty-five', 'Age', '25'],
      ['a dozen', 'How many eggs?', '12'],
      ['a couple', 'How many people?', '2'],
      ['two and a half', 'How many hours?', '2.5'],
      ['roughly sixteen hundred pounds', 'Budget', '1600'],
      ['一泊', '宿泊数', '1'],
      ['三人です', '参加人数', '3'],
      ['二十五歳です', '年齢', '25'],
      ['十二か月', '期間（月数）', '12'],
      ['8万5千円くらい', '家賃', '85000'],
      ['1億2000万', '金額', '120000000'],
      ['500万', '金額', '5000000'],
      ['3千', '金額', '3000'],
      ['$45k', 'Salary', '45000'],
      ['1.2 million', 'Population', '1200000'],
      ['about 20%', 'Discount rate', '20'],
      ['twenty percent', 'Discount rate', '20'],
      ['割引は15%です', '割引率', '15'],
      ['0', 'How many pets?', '0'],
      ['zero', 'How many pets?', '0'],
    ])('%j for %j → %s', (answer, fact, expected) => {
      expect(quantity(answer, fact)).toBe(expected);
    });

    it('does not read words that contain numeral kanji as numbers', () => {
      expect(quantity('みんな一緒で十分です', 'チームの人数')).toBeNull();
      expect(quantity('一番近いところ', '距離（km）')).toBeNull();
    });
  });

  describe('2. the unit of record', () => {
    it.each([
      ['500万円', '年収（万円）', '500'],
      ['4,200,000円です', '万円単位の金額でお答えください', '420'],
      ['420万円程度', '年収（万円）', '420'],
      ['年収は600万くらい', '年収(万円)', '600'],
      ['500', '年収（万円）', '500'],
      ['3,500円', '金額（千円単位）', '3.5'],
      ['1億円', '売上（百万円）', '100'],
      ['2億5千万円', '売上（単位：百万円）', '250'],
      ['12,000円', '会費は何千円ですか', '12'],
      ['$45,000', 'Annual salary in thousands', '45'],
      ['45k', 'Salary (k$)', '45'],
      ['$120k', 'Budget ($k)', '120'],
      ['3 billion yen', 'Revenue in millions of yen', '3000'],
      ['about 80', 'Salary in thousands of dollars', '80'],
    ])('%j for %j → %s', (answer, fact, expected) => {
      expect(quantity(answer, fact)).toBe(expected);
    });

    it.each([
      ['500万円', '年収', '5000000'],
      ['8万5千円くらい', '家賃（円）', '85000'],
      ['$45,000', 'Annual salary', '45000'],
      // An amount in a hint is an example, not a statement of the unit.
      ['4,200,000円', '年収（例：500万円）', '4200000'],
      ['12 thousand', 'Thousands of visitors come each year. How many did you expect?', '12000'],
      ['3,500円', '予算（千円以内でお願いします）', '3500'],
      ['2,000円', '予算は千円からです', '2000'],
    ])('keeps the full value of %j for %j', (answer, fact, expected) => {
      expect(quantity(answer, fact)).toBe(expected);
    });
  });

  describe('3. the counted unit picks among numbers', () => {
    it.each([
      ['5泊6日の旅行なので、6日間借りたいです', ['レンタル日数'], '6'],
      ['5泊6日の旅行なので、6日間借りたいです', ['宿泊数'], '5'],
      ['日曜日には帰らないといけないので、一泊だけです', ['宿泊数'], '1'],
      ['二泊三日です', ['何日間のご利用ですか'], '3'],
      ['二泊三日です', ['何泊されますか'], '2'],
      ['6日間、5泊です', ['泊数'], '5'],
      ['大人2人と子供1人です', ['大人の人数'], '2'],
      ['2 adults and 1 child', ['Number of adults'], '2'],
      ['2 adults and 1 child', ['How many children?'], '1'],
      ['3 days, so 2 nights', ['How many nights?'], '2'],
      ['3 days, so 2 nights', ['Rental length', 'How many days do you need the car?'], '3'],
      ['5 nights', ['宿泊数'], '5'],
      ['3泊', ['Number of nights'], '3'],
      ['We need 2 rooms for 5 people', ['How many people?'], '5'],
      ['We need 2 rooms for 5 people', ['Number of rooms'], '2'],
      ['About 12km, it takes 2 hours', ['Distance (km)'], '12'],
      ['About 12km, it takes 2 hours', ['Travel time in hours'], '2'],
      ['2、3人', ['人数'], '2'],
      ['10 to 12 people, 3 tables', ['How many people?'], '10/12'],
      ['I have 3 kids aged 4, 6 and 9', ['Number of children'], '3'],
      // A label that is a plural noun names what is counted; "so" concludes a breakdown.
      ['妻と子ども1人と私の3人です。', ['一緒に引越す人数'], '3'],
      ['夫と息子2人の4人家族です', ['一緒に引越す人数'], '4'],
      [
        "It's me plus two devs, so three seats. We might hire in the spring, but let's say 3 for now.",
        ['Seats needed', 'how many people will use it'],
        '3',
      ],
    ])('%j for %j → %s', (answer, facts, expected) => {
      expect(quantity(answer, ...facts)).toBe(expected);
    });

    it('does not take a rate for the counted unit', () => {
      expect(quantity('I earn $45,000 a year, for 3 years now', 'Annual income per year')).toBe('45000');
      expect(quantity('1泊あたり2万円で、3泊です', '予算（1泊あたり）')).toBe('20000');
    });

    it('without a unit in the fact, keeps the first number', () => {
      expect(quantity('6日間、5泊です', '期間')).toBe('6');
      expect(quantity('2 adults and 1 child', 'Party')).toBe('2');
    });
  });

  describe('4. the asserted number', () => {
    it.each([
      ["Sorry, I've just found the receipt - the total is £1,150, not £950.", 'Total amount', '1150'],
      ["Sorry, I said 24 - I'm actually 25 now, my birthday was in March.", 'Age', '25'],
      ["I said 3 nights but it's 4", 'How many nights?', '4'],
      ['twenty five dollars, not thirty', 'Budget', '25'],
      ['すみません、さっき3泊と言いましたが、2泊の間違いです。', '宿泊数', '2'],
      ['10個ではなく12個です', '個数', '12'],
      ['3人の予定だったので、4人です', '人数', '4'],
      ["We're a family of three, so we'll need 2 rooms", 'Rooms', '2'],
    ])('%j for %j → %s', (answer, fact, expected) => {
      expect(quantity(answer, fact)).toBe(expected);
    });

    it('a correction gives a value of the order of the one it replaces, not the replaced one again', () => {
      const said = "The second digit is a 7, not a 1. It's 67,500, not 61,500.";
      expect(extractQuantity(said, ['Current mileage (miles)'], { near: '61500' }).value).toBe('67500');
    });

    it('gives nothing when every number is taken back', () => {
      expect(extractQuantity('not 5', ['How many?'])).toEqual({ value: null, rejected: null });
    });
  });

  describe('5. numbers that belong to something else', () => {
    it.each([
      ['3 people, arriving in 2025', 'How many people?', '3'],
      ['2025年に家族4人で行きます', '人数', '4'],
      ['We arrive on the 20th and stay 4 nights', 'How many nights?', '4'],
      ['Arriving March 3rd, 5 of us', 'Group size', '5'],
      ['June 3, 8 guests', 'Guests', '8'],
      ['call me on 090-1234-5678, we are 4', 'Party size', '4'],
      ['Call 555-0123, 4 of us', 'Party size', '4'],
      ['my email is bob99@example.com, 2 tickets', 'Tickets', '2'],
      ['my postcode is 150-0001 and we are 3', 'Party size', '3'],
      ['〒150-0001、3名です', '人数', '3'],
      ['3月15日から4人で', '人数', '4'],
      ['10時に着きます、3人です', '人数', '3'],
      ['At 7pm, 4 of us', 'Party size', '4'],
      ['at 10:30, 6 people', 'Headcount', '6'],
      ['2025/4/1から2名', '人数', '2'],
      ['3日前から熱があって、体温は38.5度です', '体温', '38.5'],
      ['started 2 weeks ago, about 5 times a day', 'How many times a day?', '5'],
      ['25 years old, born 1999', 'How old are you?', '25'],
    ])('%j for %j → %s', (answer, fact, expected) => {
      expect(quantity(answer, fact)).toBe(expected);
    });

    it.each([
      ['2025', 'How many units?', '2025'],
      ['2025台', '台数', '2025'],
      ['the 20th', 'How many?', '20'],
      ['3 days ago', 'How many days ago did it start?', '3'],
      ['3日前からです', '何日前から症状がありますか', '3'],
    ])('still reads %j for %j when nothing else is given', (answer, fact, expected) => {
      expect(quantity(answer, fact)).toBe(expected);
    });

    it('reads a year when the fact asks for one', () => {
      expect(quantity('built in 1987, renovated 10 years ago', 'What year was it built?')).toBe('1987');
      expect(quantity('2019年です', '何年に建てられましたか')).toBe('2019');
    });
  });

  describe('6. no figure', () => {
    it.each([
      ['Not sure'],
      ["I don't know"],
      ['no idea, sorry'],
      ['わかりません'],
      ['覚えていません'],
      ['みんなで行きます'],
      ['Just the usual'],
    ])('gives nothing for %j', (answer) => {
      expect(extractQuantity(normalizeText(answer), ['How many people?', '人数'])).toEqual({ value: null, rejected: null });
    });

    it.each([
      ['a few', 'a few'],
      ['Several, probably', 'Several'],
      ['some friends', 'some'],
      ['quite a few people', 'quite a few'],
      ['lots', 'lots'],
      ['数人です', '数人'],
      ['十数人くらい', '十数人'],
      ['何人かで行きます', '何人か'],
      ['複数名', '複数'],
      ['数日です', '数日'],
    ])('rejects the vague quantity %j', (answer, phrase) => {
      expect(extractQuantity(normalizeText(answer), ['How many people?', '人数'])).toEqual({
        value: null,
        rejected: phrase,
        problem: 'invalid',
      });
    });

    it('prefers a figure given alongside a vague word', () => {
      expect(quantity('a few, maybe 3', 'How many people?')).toBe('3');
      expect(quantity('数人、たぶん4人です', '人数')).toBe('4');
      expect(quantity("I don't know exactly, maybe 5", 'How many?')).toBe('5');
    });

    it('does not take a question back for a vague answer', () => {
      expect(extractQuantity('何人ですか?', ['人数'])).toEqual({ value: null, rejected: null });
    });
  });
});

describe('a span of amounts is kept whole (issue 33)', () => {
  const claim = ['損害額の見込み（概算で可）', '金額または金額の幅が分かること', '「○万〜○万円」のように幅でのご回答でも構いません'];
  it.each([
    ['5万から8万円くらいだと思います', claim, '50000/80000'],
    // A magnitude written once at the end is both ends'; a placeholder 「○万円」 is an example, not the unit of record.
    ['5〜8万円', claim, '50000/80000'],
    ['15万円です', claim, '150000'],
    ['between 20 and 30 people', ['How many guests?'], '20/30'],
    ['10-12 people', ['How many guests?'], '10/12'],
    ['$10-12k', ['Budget'], '10000/12000'],
    // Alternatives are not a span, and "and" joins a span only after "between".
    ['5 or 6 nights', ['How many nights?'], '5'],
    ['2 adults and 3 children', ['Number of adults'], '2'],
  ])('%j', (answer, unitTexts, value) => {
    expect(quantity(answer, ...unitTexts)).toBe(value);
  });
});
