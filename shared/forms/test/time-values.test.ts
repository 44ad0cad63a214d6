import { describe, expect, it } from 'vitest';
import { dateDirection, extractDate, type DateOptions } from '@convo/forms/internal/nlu/date-values';
import { normalizeText } from '@convo/forms/internal/nlu/text';
import {
  asksForRecord,
  extractDuration,
  extractPeriod,
  extractTime,
  extractYear,
  type TimeOptions,
} from '@convo/forms/internal/nlu/time-values';

// A Tuesday: 12:00 in Tokyo, 03:00 in London.
const NOW = new Date('2026-11-24T03:00:00Z');
// 05:00 on Wednesday in Tokyo while it is still Tuesday evening in London.
const LATE = new Date('2026-11-24T20:00:00Z');

const ja: TimeOptions = { language: 'ja', now: NOW, timezone: 'Asia/Tokyo' };
const en: TimeOptions = { language: 'en', now: NOW, timezone: 'Europe/London' };
const session = (text: string): TimeOptions => (/[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u.test(text) ? ja : en);

function date(text: string, extra: Partial<DateOptions> = {}) {
  return extractDate(normalizeText(text), { ...session(text), country: null, requireYear: false, ...extra });
}
const time = (text: string) => extractTime(normalizeText(text), session(text));
const year = (text: string) => extractYear(normalizeText(text), session(text));
const duration = (text: string, record = false) => extractDuration(normalizeText(text), { ...session(text), record });
const period = (text: string) => extractPeriod(normalizeText(text), session(text));

describe('extractDate', () => {
  it.each([
    ["I need to give four weeks' notice, so the earliest would be Monday the 7th of April 2025.", '2025-04-07'],
    ["The September one, please - the 15th of September 2025. We're travelling in the spring.", '2025-09-15'],
    ['Sometime in March, ideally Friday 12 March 2027', '2027-03-12'],
    ['3月がいいです。具体的には2027年3月15日です', '2027-03-15'],
    ['金曜日か、2027年1月8日の金曜日', '2027-01-08'],
  ])('picks the most complete date in %j', (text, value) => {
    expect(date(text).value).toBe(value);
  });

  it.each([
    ['昭和58年の11月20日生まれです。西暦だと1983年ですね', '1983-11-20'],
    ['令和3年の2月14日です', '2021-02-14'],
    ['令和元年5月1日', '2019-05-01'],
    ['平成三十年四月一日', '2018-04-01'],
    ['H30.4.1', '2018-04-01'],
    ['R5年3月1日', '2023-03-01'],
    ['令5年3月1日です', '2023-03-01'],
    ['大正12年9月1日', '1923-09-01'],
    ['2025年の1月15日', '2025-01-15'],
    ['90年5月3日生まれ', '1990-05-03'],
  ])('reads Japanese eras and year forms in %j', (text, value) => {
    expect(date(text, { requireYear: true }).value).toBe(value);
  });

  it('drops a date the respondent takes back', () => {
    expect(date('9月12日ではなく9月13日です').value).toBe('2026-09-13');
    expect(date('9月12日ではなく9月13日です', { direction: 'future' }).value).toBe('2027-09-13');
    expect(date('it started on January 25, not the 28th', { direction: 'past' }).value).toBe('2026-01-25');
    expect(date('March 4th, not March 3rd', { direction: 'future' }).value).toBe('2027-03-04');
    expect(date('The 3rd of March - sorry, not the 3rd, I meant 5 March 2027').value).toBe('2027-03-05');
  });

  it('uses a date in a background clause only when nothing else is given', () => {
    expect(date('3月1日に退去するので、入居は3月5日でお願いします', { direction: 'future' }).value).toBe('2027-03-05');
    expect(date("My lease ends on 28 February, so I'd like to move in on 1 March", { direction: 'future' }).value).toBe('2027-03-01');
    expect(date('3月1日に退去するので', { direction: 'future' }).value).toBe('2027-03-01');
  });

  it('completes a missing year by direction: most recent past day, next future day, or the nearest', () => {
    expect(date('November 20', { direction: 'past' }).value).toBe('2026-11-20');
    expect(date('November 20', { direction: 'future' }).value).toBe('2027-11-20');
    expect(date('November 20', { direction: 'any' }).value).toBe('2026-11-20');
    expect(date('12月1日', { direction: 'past' }).value).toBe('2025-12-01');
    expect(date('12月1日', { direction: 'future' }).value).toBe('2026-12-01');
    expect(date('11月24日', { direction: 'past' }).value).toBe('2026-11-24');
    expect(date('11月24日', { direction: 'future' }).value).toBe('2026-11-24');
    expect(date('Friday', { direction: 'past' }).value).toBe('2026-11-20');
    expect(date('金曜日', { direction: 'future' }).value).toBe('2026-11-27');
    expect(date('in April', { direction: 'past' }).value).toBe('2026-04');
    expect(date('4月から', { direction: 'future' }).value).toBe('2027-04');
  });

  it('reads the direction from the reply when the fact gives none, and from "last"/"next" before a month', () => {
    expect(date('It started on December 1').value).toBe('2025-12-01');
    expect(date('12月1日に始まりました').value).toBe('2025-12-01');
    expect(date('last March').value).toBe('2026-03');
    expect(date('next March').value).toBe('2027-03');
    expect(date('It started on December 1', { direction: 'future' }).value).toBe('2026-12-01');
  });

  it('requires the year for a birth date', () => {
    expect(date('May 3rd', { requireYear: true })).toEqual({ value: null, rejected: 'May 3rd', problem: 'no_year' });
    expect(date('5月3日生まれです', { requireYear: true })).toMatchObject({ value: null, problem: 'no_year' });
    expect(date('May 3rd, um, 1990', { requireYear: true }).value).toBe('1990-05-03');
    expect(date('生年月日は1985年の7月7日です', { requireYear: true }).value).toBe('1985-07-07');
    expect(date('7/7/1985', { requireYear: true, country: 'GB' }).value).toBe('1985-07-07');
  });

  it('resolves relative dates in the session time zone', () => {
    expect(date('next Friday').value).toBe('2026-12-04');
    expect(date('this Friday').value).toBe('2026-11-27');
    expect(date('来週の金曜日').value).toBe('2026-12-04');
    expect(date('再来週の月曜').value).toBe('2026-12-07');
    expect(date('先週の金曜日').value).toBe('2026-11-20');
    expect(date('一昨日').value).toBe('2026-11-22');
    expect(date('3日前から').value).toBe('2026-11-21');
    expect(date('two weeks ago').value).toBe('2026-11-10');
    expect(date('in 3 days').value).toBe('2026-11-27');
    expect(extractDate('明日', { language: 'ja', now: LATE, timezone: 'Asia/Tokyo', requireYear: false }).value).toBe('2026-11-26');
    expect(extractDate('tomorrow', { language: 'en', now: LATE, timezone: 'Europe/London', requireYear: false }).value).toBe('2026-11-25');
  });

  it('crosses the year boundary when completing a date', () => {
    const yearEnd = { language: 'ja' as const, now: new Date('2026-12-30T03:00:00Z'), timezone: 'Asia/Tokyo', requireYear: false };
    expect(extractDate('金曜日', { ...yearEnd, direction: 'future' }).value).toBe('2027-01-01');
    expect(extractDate('来週の月曜日', yearEnd).value).toBe('2027-01-04');
    expect(extractDate('1月5日', { ...yearEnd, direction: 'future' }).value).toBe('2027-01-05');
    expect(extractDate('明後日', yearEnd).value).toBe('2027-01-01');
  });

  it('keeps month precision when only a month is named', () => {
    expect(date('April 2025').value).toBe('2025-04');
    expect(date('2025年4月').value).toBe('2025-04');
    expect(date('令和7年4月').value).toBe('2025-04');
    expect(date('先月').value).toBe('2026-10');
    expect(date('next month').value).toBe('2026-12');
    expect(date('来年の3月').value).toBe('2027-03');
  });

  it.each([
    ["I'm not sure, honestly. Sometime in the last few weeks?"],
    ['a while ago'],
    ['a few days ago'],
    ['last week'],
    ['four weeks'],
    ['最近'],
    ['数日前です'],
    ['覚えていません'],
    ['2024'],
  ])('finds no date in the vague %j', (text) => {
    expect(date(text).value).toBeNull();
  });

  it('names a numeric date that does not exist', () => {
    expect(date('2025-02-30')).toEqual({ value: null, rejected: '2025-02-30', problem: 'invalid' });
    expect(date('2025年2月30日')).toMatchObject({ value: null, rejected: '2025年2月30日', problem: 'invalid' });
    expect(date('31/02/2025', { country: 'GB' })).toMatchObject({ value: null, problem: 'invalid' });
  });

  it('reads numeric dates in the order of the respondent’s country', () => {
    expect(date('3/4/2025', { country: 'GB' }).value).toBe('2025-04-03');
    expect(date('3/4/2025', { country: 'US' }).value).toBe('2025-03-04');
    expect(date('2025/4/1').value).toBe('2025-04-01');
  });

  it('keeps the reviewer’s existing readings (machine-local reference, no zone)', () => {
    const local = { language: 'en' as const, now: new Date(2025, 2, 12, 12, 0, 0), requireYear: false };
    expect(extractDate('next Monday', local).value).toBe('2025-03-17');
    expect(extractDate('来週の月曜日', { ...local, language: 'ja' }).value).toBe('2025-03-17');
    expect(extractDate('2025年4月1日から可能です', { ...local, language: 'ja' }).value).toBe('2025-04-01');
    expect(extractDate('May 3, 1990', { ...local, requireYear: true }).value).toBe('1990-05-03');
  });
});

describe('dateDirection', () => {
  it.each([
    [['Date of birth'], 'past'],
    [['生年月日'], 'past'],
    [['When did you first notice the symptoms?'], 'past'],
    [['When did you start?'], 'past'],
    [['事故の発生日'], 'past'],
    [['症状が始まった日'], 'past'],
    [['Date the incident happened'], 'past'],
    [['Preferred start date'], 'future'],
    [['Move-in date'], 'future'],
    [['Pickup date'], 'future'],
    [['Appointment date'], 'future'],
    [['入居希望日'], 'future'],
    [['利用開始日'], 'future'],
    [['来院予定日'], 'future'],
    [['Date'], 'any'],
    [['日付'], 'any'],
  ] as const)('reads %j as %s', (texts, direction) => {
    expect(dateDirection(texts)).toBe(direction);
  });
});

describe('extractTime', () => {
  it.each([
    ['夜8時くらい', '20:00'],
    ['夕方の5時半くらい', '17:30'],
    ['around 5:30 in the evening', '17:30'],
    ["Afternoons are best for me, say around 4 o'clock?", '16:00'],
    ['午後3時', '15:00'],
    ['午後3時半ごろ', '15:30'],
    ['朝9時', '09:00'],
    ['夜12時', '00:00'],
    ['深夜2時', '02:00'],
    ['tonight at 8', '20:00'],
    ['noon', '12:00'],
    ['midnight', '00:00'],
    ['正午', '12:00'],
    ['half past 5', '05:30'],
    ['half past five in the afternoon', '17:30'],
    ['quarter to 7', '06:45'],
    ['ten past four in the afternoon', '16:10'],
    ['at five thirty in the evening', '17:30'],
    ['around 3pm', '15:00'],
    ['19:30', '19:30'],
    ['7.30 in the evening', '19:30'],
    ['half seven', '07:30'],
    ['ten to six', '05:50'],
    ['any time from 9 to 5', '09:00'],
    ['Mornings, ideally 10ish', '10:00'],
    ['三時半', '03:30'],
    ['十五時', '15:00'],
    ['夜の9時過ぎ', '21:00'],
  ])('reads %j as %s', (text, value) => {
    expect(time(text).value).toBe(value);
  });

  it('puts background times last, drops retracted ones and lets a refinement win', () => {
    expect(time('飛行機が那覇に11時半に着く予定なので、12時くらいに借りたい').value).toBe('12:00');
    expect(time("I get off work at 5, so I'd usually be in around 5:30 in the evening").value).toBe('17:30');
    expect(time('10時ではなく11時でした').value).toBe('11:00');
    expect(time('not 3pm but 4pm').value).toBe('16:00');
    expect(time('after 6pm, say 6:30').value).toBe('18:30');
    expect(time('夕方5時以降で、できれば6時半').value).toBe('18:30');
    expect(time('10時か11時').value).toBe('10:00');
  });

  it.each([['at 5 years old'], ["I'm free any time"], ['いつでも大丈夫です'], ['2025年4月1日']])('finds no time in %j', (text) => {
    expect(time(text).value).toBeNull();
  });

  it('names a clock time that does not exist', () => {
    expect(time('25:00')).toEqual({ value: null, rejected: '25:00', problem: 'invalid' });
  });
});

describe('extractYear', () => {
  it.each([
    ['2023', '2023'],
    ['2023年', '2023'],
    ['I graduated in 2019', '2019'],
    ['令和5年', '2023'],
    ['令和3年です', '2021'],
    ['平成30年度', '2018'],
    ['平成元年', '1989'],
    ['R5', '2023'],
    ['H30卒です', '2018'],
    ['last year', '2025'],
    ['the year before last', '2024'],
    ['昨年', '2025'],
    ['おととし', '2024'],
    ['3 years ago', '2023'],
    ['5年前です', '2021'],
    ["back in '98", '1998'],
    ['2018, not 2019', '2018'],
    ['2019年ではなく2018年です', '2018'],
    ['昭和58年の11月20日生まれです。西暦だと1983年ですね', '1983'],
  ])('reads %j as %s', (text, value) => {
    expect(year(text).value).toBe(value);
  });

  it.each([['2000円で買いました'], ['about 2000 people'], ['H1 results were fine'], ['覚えていません']])('finds no year in %j', (text) => {
    expect(year(text).value).toBeNull();
  });
});

describe('extractDuration', () => {
  it.each([
    ['Sixteen years', 'Sixteen years'],
    ['about six months', 'about six months'],
    ['forty-five minutes or so', 'forty-five minutes'],
    ['2 yrs', '2 yrs'],
    ['a year and a half', 'a year and a half'],
    ['one and a half years', 'one and a half years'],
    ['1 hour 52 minutes', '1 hour 52 minutes'],
    ['1h52m', '1h52m'],
    ['3年間です', '3年間'],
    ['半年くらい', '半年くらい'],
    ['1年3ヶ月', '1年3ヶ月'],
    ['3年と2ヶ月', '3年と2ヶ月'],
    ['2年ちょっと', '2年ちょっと'],
    ['a fortnight', 'a fortnight'],
    ['for the past 5 years', '5 years'],
    ['数年', '数年'],
    ['三年です', '三年'],
    ['1時間52分', '1時間52分'],
    ['55分30秒', '55分30秒'],
    ['10kmで48分です', '48分'],
    ['1:52:30', '1:52:30'],
    ['52:30', '52:30'],
    ['2015-2017', '2015-2017'],
    ['2 yrs, 2015-2017', '2 yrs'],
    ['since 2019', 'since 2019'],
    ['2019年からです', '2019年から'],
    ['平成27年から平成29年まで', '平成27年から平成29年まで'],
    ['5泊6日の旅行なので、6日間', '6日間'],
    ['twenty-five', '25'],
  ])('reads %j as %j', (text, value) => {
    expect(duration(text).value).toBe(value);
  });

  it('reads a clock-style length under 24 only when the fact asks for a record', () => {
    expect(duration('1:52', true).value).toBe('1:52');
    expect(duration('1:52').value).toBeNull();
    expect(asksForRecord(['Your finishing time in the race'])).toBe(true);
    expect(asksForRecord(['フルマラソンの自己ベスト'])).toBe(true);
    expect(asksForRecord(['How long have you lived here?'])).toBe(false);
  });

  it.each([['十分です'], ['令和5年'], ["I'm 20 years old"], ['10時30分'], ['a while'], ['けっこう長いです']])(
    'finds no length in %j',
    (text) => {
      expect(duration(text).value).toBeNull();
    },
  );
});

describe('extractPeriod', () => {
  it.each([
    ['Collecting 12 May 2025, returning 19 May 2025', '12 May 2025, 19 May 2025'],
    ['I did a bit at school, about two years, from 2008 to 2010', 'about two years, from 2008 to 2010'],
    [
      'Oh, I took an evening class years ago, back in 1998. It ran for about six months before life got in the way',
      '1998, about six months',
    ],
    ['2 yrs, 2015-2017', '2 yrs, 2015-2017'],
    ['One year at university, in 2012', 'One year, 2012'],
    ['Three months on Duolingo in 2023', 'Three months, 2023'],
    ['From 2019 to 2021', 'From 2019 to 2021'],
    ['I graduated in 2019', '2019'],
    ['early April 2025', 'early April 2025'],
    ['last spring', 'last spring'],
    ['two weeks ago', 'two weeks ago'],
    ['since late 2019', 'since late 2019'],
    ['I sat the exam in 2019', '2019'],
    ['2019, not 2018', '2019'],
    ['2025年2月3日からです', '2025年2月3日から'],
    ['たしか2025年の1月20日ごろからだったと思います', '2025年の1月20日ごろから'],
    ['3日前から', '3日前から'],
    ['昨日の朝から', '昨日の朝から'],
    ['1週間前から', '1週間前から'],
    ['今朝から', '今朝から'],
    ['1月末から', '1月末から'],
    ['1月20日ごろ', '1月20日ごろ'],
    ['去年の春ごろ', '去年の春ごろ'],
    ['2019年から2021年まで', '2019年から2021年まで'],
    ['令和3年', '令和3年'],
    ['2020年に半年ほど', '2020年, 半年ほど'],
    ['2018年ではなく2019年です', '2019年'],
    ['平成30年から令和2年まで', '平成30年から令和2年まで'],
    ['去年の夏から今年の春まで', '去年の夏から今年の春まで'],
    ['3月中旬ごろ', '3月中旬ごろ'],
    ['来月から', '来月から'],
    ['90年代', '90年代'],
    ['Back in the 90s', 'the 90s'],
    ['I moved here in the summer of 2019 and stayed until March 2021', 'summer of 2019, until March 2021'],
    ['It has been going on since January', 'since January'],
  ])('reads %j as %j', (text, value) => {
    expect(period(text).value).toBe(value);
  });

  it.each([['a while ago'], ['最近'], ["I'm not sure"], ['覚えていません'], ['in my 20s'], ['小学生の頃']])(
    'finds no period in %j',
    (text) => {
      expect(period(text).value).toBeNull();
    },
  );
});
