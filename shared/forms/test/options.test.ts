import { beforeAll, describe, expect, it } from 'vitest';
import { answerSpec, preloadContentAnalyzer } from '@convo/forms';
import { findOptions, matchOption, yesNoOptions } from '@convo/forms/internal/nlu/options';

beforeAll(async () => {
  await preloadContentAnalyzer();
});

describe('a list of options is what a form sets apart as one', () => {
  it.each([
    [['Size (XS/S/M/L)'], ['XS', 'S', 'M', 'L']],
    [['希望コース（初級・中級・上級）'], ['初級', '中級', '上級']],
    [['「窓口」「郵送」「オンライン」のいずれか'], ['窓口', '郵送', 'オンライン']],
    [['受取方法は店頭・配送・ロッカーから一つ'], ['店頭', '配送', 'ロッカー']],
    [['Pick one of: Bronze, Silver, Gold'], ['Bronze', 'Silver', 'Gold']],
    [['Membership tier: Bronze, Silver, or Gold'], ['Bronze', 'Silver', 'Gold']],
    [['Bronze, Silver or Gold'], ['Bronze', 'Silver', 'Gold']],
    [['朝・昼・夜'], ['朝', '昼', '夜']],
    [['出す場所は「玄関先」「集積所」のどちらですか'], ['玄関先', '集積所']],
    [['玄関先 か 集積所 のどちらか'], ['玄関先', '集積所']],
    [['参加形態。「来場のみ」「模擬店出店」「運営ボランティア」の3つ'], ['来場のみ', '模擬店出店', '運営ボランティア']],
    [['Our levels are Beginner, Intermediate and Advanced.'], ['Beginner', 'Intermediate', 'Advanced']],
    [['T-shirt size (S, M, L, XL)'], ['S', 'M', 'L', 'XL']],
    // A dash introduces a list as a colon does.
    [['Meeting format — In person, Video call, or Phone call'], ['In person', 'Video call', 'Phone call']],
    // Numbers beside a named value: kindergarten and the grades.
    [['One of: K, 1, 2, 3, 4, 5'], ['K', '1', '2', '3', '4', '5']],
  ])('%j → %j', (texts, options) => {
    expect(findOptions(texts).options).toEqual(options);
  });

  it.each([
    // 「・」 joining nouns is "and": what the fact is about, not values to pick.
    ['ボランティアに参加する理由・きっかけ'],
    ['アレルギー・持病・性格など、何でもご記入ください'],
    ['薬・食べ物のアレルギーがあるかどうか'],
    ['ゼッケン・記録証に印字します'],
    ['アレルギー・苦手な食材'],
    ['タイム（時間・分）がわかること'],
    // Descriptions in brackets, open example lists and adjectives before a noun.
    ['収集場所の住所（番地・建物名・部屋番号まで）'],
    ['個室(4名様以上、室料なし)を希望するか'],
    ["Summary of the talk and how it's delivered (live demo, slides, hands-on)."],
    ['Special or heavy items? (piano, safe, hot tub, artwork, aquarium...)'],
    ['Large, heavy, fragile or unusual items'],
    // 「どちらでも」 is "either", not a question; 「から」 is no 「か」 between two options.
    ['携帯・固定どちらでも可'],
    ['収集は平日（月〜金）のみ。申込日から1週間以降の日を選んでください'],
    ['けが人の有無（相手方・同乗者を含む）'],
    // Two words joined by "or" in prose describe the fact.
    ['Items lost or damaged'],
    ['Years or dates'],
    ['A length of time or the year they passed'],
    ['Employer or site and role'],
    ['e.g. Python, Go or Rust'],
    ['年数、または何年から何年まで'],
  ])('%s has no options', (text) => {
    expect(findOptions([text]).options).toEqual([]);
  });

  it('keeps the descriptions forms give next to options as aliases', () => {
    const found = findOptions(['Day (6am-2pm), Afternoon (2pm-10pm) or Night (10pm-6am)', 'A = Kubernetes, B = Frontend']);
    expect(found.options).toEqual(['Day', 'Afternoon', 'Night']);
    expect(found.aliases.Day).toEqual(['6am-2pm']);
    expect(findOptions(['朝コース＝9時から、夜コース＝19時から', '「朝コース」「夜コース」のどちらか']).aliases['夜コース']).toEqual([
      '19時から',
    ]);
  });

  it('recognises yes/no pairs, including a predicate and its negation', () => {
    expect(yesNoOptions(['Yes', 'No'])).toBe(true);
    expect(yesNoOptions(['要', '不要'])).toBe(true);
    expect(yesNoOptions(['参加する', '参加しない'])).toBe(true);
    expect(yesNoOptions(['利用する', 'しない'])).toBe(true);
    expect(yesNoOptions(['いる', 'いない'])).toBe(true);
    expect(yesNoOptions(['午前', '午後'])).toBe(false);
  });

  it('an explicit choice cue overrides a typed kind; a bracket does not', () => {
    const field = { label: '参加できる日', intent: null };
    expect(answerSpec({ factKey: 'day', fact: '参加できる日', doneCriteria: '「平日」「週末」「いつでも」のどれか' }, field)).toMatchObject(
      { type: 'choice' },
    );
    expect(
      answerSpec(
        { factKey: 'y', fact: 'Graduation year (western or Japanese calendar)', doneCriteria: '' },
        { label: 'Year', intent: null },
      ).type,
    ).toBe('year');
    expect(
      answerSpec(
        { factKey: 'p', fact: '駐車場を利用するか', doneCriteria: '利用する・しないのどちらか' },
        { label: '駐車場', intent: null },
      ).type,
    ).toBe('yes_no');
  });
});

describe('offers that hold commas, prices and brackets of their own (issue 33)', () => {
  it.each([
    [
      ['One of: Main Hall – $85 per hour (up to 120 people); Studio B, with mirrors – $40 per hour; Meeting Room 2 – $20 per hour'],
      ['Main Hall – $85 per hour (up to 120 people)', 'Studio B, with mirrors – $40 per hour', 'Meeting Room 2 – $20 per hour'],
    ],
    [
      ['Permit type (Annual resident permit, $120; Visitor permit, up to 14 days, $25; Contractor permit, $8 per day)'],
      ['Annual resident permit, $120', 'Visitor permit, up to 14 days, $25', 'Contractor permit, $8 per day'],
    ],
    [
      ['和室（15名まで） 1時間300円／第1会議室（30名まで） 1時間600円／多目的ホール（100名まで） 1時間1,500円 のどれか1つ'],
      ['和室（15名まで） 1時間300円', '第1会議室（30名まで） 1時間600円', '多目的ホール（100名まで） 1時間1,500円'],
    ],
    [
      ['問い合わせの種別。選択肢：ハードウェア／ソフトウェア／アカウント・パスワード／その他'],
      ['ハードウェア', 'ソフトウェア', 'アカウント・パスワード', 'その他'],
    ],
  ])('%j', (texts, options) => {
    // Kept whole and as the form writes them (the en dash, the full-width brackets): the stored value is the offer's own text.
    expect(findOptions(texts)).toMatchObject({ options, strict: true, cued: true });
  });

  it('reads plain words before 「のいずれか」 set apart by 「、」 as a soft list, closed when it ends in a catch-all', () => {
    expect(findOptions(['仕事、専攻、経験のいずれか'])).toMatchObject({ options: ['仕事', '専攻', '経験'], strict: false });
    expect(findOptions(['犬、猫、うさぎ、その他のいずれか。'])).toMatchObject({ options: ['犬', '猫', 'うさぎ', 'その他'], strict: true });
  });

  it('reads a text that is nothing but names joined by "or" as the values', () => {
    expect(findOptions(['Morning or Afternoon']).options).toEqual(['Morning', 'Afternoon']);
    expect(findOptions(['Paper, Email or Text']).options).toEqual(['Paper', 'Email', 'Text']);
    expect(findOptions(['Phone or email']).options).toEqual([]);
  });

  it('picks an option written short, each word its letters in order, and only one', () => {
    const years = ['Prep', 'Year 1', 'Year 2', 'Year 3'];
    expect(matchOption('yr 1', years)).toEqual({ option: 'Year 1' });
    expect(matchOption('std', ['Standard', 'Express'])).toEqual({ option: 'Standard' });
    expect(matchOption('yr', years)).toBeNull();
  });

  it('picks an offer named by its opening words', () => {
    const halls = ['Main Hall – $85 per hour (up to 120 people)', 'Studio B, with mirrors – $40 per hour', 'Meeting Room 2 – $20 per hour'];
    expect(matchOption('The Main Hall please', halls)).toEqual({ option: halls[0] });
    expect(matchOption('studio b', halls)).toEqual({ option: halls[1] });
  });
});

describe('options named by what they mean (issue 33)', () => {
  const reasons = ['Illness', 'Bereavement', 'Timetable clash', 'Other'];
  const returns = ['Arrived damaged', 'Wrong item', 'Changed my mind', 'Other'];
  it.each([
    // A kind of the option's word, in WordNet: flu → influenza → contagious disease → … → illness.
    ["I had the flu and couldn't get out of bed", reasons, 'Illness'],
    // A verb that is a kind of the option's verb.
    ["I'd like to swap it for the one I actually ordered", ['Refund to original payment', 'Store credit', 'Exchange'], 'Exchange'],
    // One step sideways: "broken" in the cluster of "damaged", "arrival" the noun of "arrive".
    ['broken on arrival', returns, 'Arrived damaged'],
    ['a puppy', ['Cat', 'Dog', 'Rabbit', 'Other'], 'Dog'],
  ])('%j', (reply, options, option) => {
    expect(matchOption(reply, options)).toEqual({ option });
  });

  it.each([
    // A contraction's pieces are not words ("don" would be a verb of changing clothes).
    ["I just don't need them anymore", returns],
    // Nothing in WordNet links these: no guess.
    ['my grandmother passed away', reasons],
  ])('proposes nothing for %j', (reply, options) => {
    expect(matchOption(reply, options)).toBeNull();
  });

  it.each([
    // The half of the day, when the options are parts of it.
    ['am', ['Morning', 'Afternoon'], 'Morning'],
    ['pm please', ['Morning', 'Afternoon'], 'Afternoon'],
    ['after 2pm', ['Morning', 'Afternoon'], 'Afternoon'],
    // Its place in the list, as offered.
    ['the later one', ['Morning', 'Afternoon'], 'Afternoon'],
    ['the first one', ['Studio', 'Hall', 'Room 2'], 'Studio'],
    ['2番目でお願いします', ['和室', '洋室', 'ホール'], '洋室'],
    ['後者で', ['午前', '午後'], '午後'],
    // A longer word that begins with a one-word option.
    ['MacBook', ['Mac', 'Windows', 'Linux'], 'Mac'],
  ])('%j names %j by something other than its words', (reply, options, option) => {
    expect(matchOption(reply, options)).toEqual({ option });
  });

  it('picks an option by a word of the description the question gives it, quoted or not, weekdays however written', () => {
    const texts = [
      'Which weekly session? Mini (Tue 4:00–4:45), Junior (Thu 4:00–5:30) or Weekend (Sat 9:00–10:00)',
      'Mini, Junior or Weekend',
    ];
    const found = findOptions(texts);
    expect(found.options).toEqual(['Mini', 'Junior', 'Weekend']);
    expect(matchOption('sat', found.options, texts, found.aliases)).toEqual({ option: 'Weekend' });
    expect(matchOption('thursday', found.options, texts, found.aliases)).toEqual({ option: 'Junior' });
    expect(matchOption('money', found.options, texts, found.aliases)).toBeNull();
  });

  it('reads "the later one" among three as nothing, and "am" among parts of the day it does not split as nothing', () => {
    expect(matchOption('the later one', ['A', 'B', 'C'])).toBeNull();
    expect(matchOption('am', ['Afternoon', 'Evening'])).toBeNull();
  });

  const damage = ['火災', '落雷', '風災・雹災・雪災', '水濡れ', '盗難', '破損・汚損', 'その他'];
  it.each([
    ['上の階の部屋から水漏れがありました', '水濡れ'],
    ['台風の強風で、ということになるんでしょうか', '風災・雹災・雪災'],
  ])('picks the one Japanese option that shares a kanji with %j', (reply, option) => {
    expect(matchOption(reply, damage)).toEqual({ option });
  });

  it('reads no kanji of the question itself, nor one several options share', () => {
    expect(matchOption('空き巣に入られました', damage)).toBeNull();
    // 「被害」 is the question's word; 「災」 is in three options.
    expect(matchOption('被害が大きい災いでした', damage, ['被害の区分を教えてください'])).toBeNull();
    expect(matchOption('被害が大きい災いでした', damage)).toBeNull();
  });

  it('reads a slash list after its topic, with 「・」 inside an item, and the aliases a hint gives', () => {
    const hint = '区分は 火災／落雷／風災・雹災・雪災／水濡れ／盗難／破損・汚損／その他。うっかり壊した場合は破損・汚損です';
    const found = findOptions(['損害の原因', hint]);
    expect(found.options).toEqual(damage);
    expect(found.aliases['破損・汚損']).toEqual(['うっかり壊した場合']);
  });
});

describe('which option a reply picks', () => {
  const units = ['Studio', '1-Bedroom', '2-Bedroom'];
  it.each([
    ['2 bedroom', units, '2-Bedroom'],
    ['two-bedroom if possible', units, '2-Bedroom'],
    ['1 bed', units, '1-Bedroom'],
    ['just a studio', units, 'Studio'],
    ['nights', ['Day', 'Afternoon', 'Night'], 'Night'],
    ['the deluxe', ['Standard Queen', 'Deluxe King', 'Suite'], 'Deluxe King'],
    ['no pref', ['Dr. Lee', 'Dr. Okafor', 'No preference'], 'No preference'],
    ['Either is fine', ['Dr. Lee', 'Dr. Okafor', 'No preference'], 'No preference'],
    ['どちらでも大丈夫です', ['男性スタッフ', '女性スタッフ', '指定なし'], '指定なし'],
    ['extra large please', ['S', 'M', 'L', 'XL'], 'XL'],
    ['エムでお願いします', ['S', 'M', 'L', 'XL'], 'M'],
    ['Can I get a Small instead of the Medium?', ['S', 'M', 'L', 'XL'], 'S'],
    ['中級でお願いします', ['初級', '中級', '上級'], '中級'],
    // Taken back, then the answer: 「さっき初級と言いましたが…上級で」.
    ['さっき初級と言いましたが、仕事が忙しいので上級でお願いします', ['初級', '中級', '上級'], '上級'],
    // Spelled in other words after taking the literal option back.
    [
      'Going back to the format — I said Lightning but I meant the standard 30-minute talk.',
      ['Lightning', 'Standard talk', 'Workshop'],
      'Standard talk',
    ],
    ['She just started fourth grade this fall', ['K', '1', '2', '3', '4', '5'], '4'],
    // The clause of decision, even inside one sentence.
    ["I'm normally a small, but race shirts run tiny so let's say a medium to be safe.", ['XS', 'S', 'M', 'L', 'XL'], 'M'],
    // Named after the last "but": 「…迷いますが、130で」.
    ['120か130か迷いますが、130で', ['110', '120', '130', '140'], '130'],
    // A word only one option has, and an option's parts said with particles between them.
    ['お迎えです', ['保護者お迎え', '一人で帰宅'], '保護者お迎え'],
    ['まだ1年生なので、私が迎えに行きます。', ['保護者お迎え', '一人で帰宅'], '保護者お迎え'],
    ['電気もガスも両方お願いします', ['電気のみ', 'ガスのみ', '電気・ガス両方'], '電気・ガス両方'],
  ])('%s → %s', (reply, options, option) => {
    expect(matchOption(reply, options)).toEqual({ option });
  });

  it('takes the option of the sentence where the respondent decides', () => {
    const meals = ['Braised short rib', 'Herb-roasted salmon', 'Wild mushroom risotto'];
    const reply =
      "The short rib sounds divine but my cardiologist would have my head. Let's say the mushroom risotto for me. He'll want the short rib, I'm sure.";
    expect(matchOption(reply, meals)).toEqual({ option: 'Wild mushroom risotto' });
  });

  it('uses the descriptions the form gave', () => {
    expect(matchOption('the Kubernetes one', ['A', 'B', 'C'], [], { A: ['Kubernetes'], B: ['Frontend'], C: ['AI'] })).toEqual({
      option: 'A',
    });
  });

  it('leaves hesitation and unrelated words to the follow-up', () => {
    expect(matchOption('Day or Night, whichever', ['Day', 'Afternoon', 'Night'])).toEqual({ ambiguous: ['Day', 'Night'] });
    expect(matchOption("I'll check with my manager which one we cover", ['A', 'B', 'C'])).toBeNull();
    expect(matchOption('purple', ['S', 'M', 'L', 'XL'])).toBeNull();
  });

  it('words of the question pick nothing, unless they belong to an option', () => {
    expect(matchOption('a shirt', ['S', 'M', 'L', 'XL'], ['T-shirt size'])).toBeNull();
    expect(matchOption('standard', ['Standard Queen', 'Deluxe King', 'Suite'], ['One of Standard Queen, Deluxe King or Suite'])).toEqual({
      option: 'Standard Queen',
    });
  });

  it('accepts a Japanese option spelled in Latin letters (as an English interview names it)', () => {
    expect(matchOption('washitsu please', ['和室', '洋室'])).toEqual({ option: '和室' });
  });
});
