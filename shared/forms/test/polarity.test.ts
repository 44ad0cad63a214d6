import { beforeAll, describe, expect, it } from 'vitest';
import { extractYesNo } from '@convo/forms/internal/nlu/answer-values';
import { preloadContentAnalyzer } from '@convo/forms';
import { affirms, answerPolarity } from '@convo/forms/internal/nlu/polarity';

beforeAll(async () => {
  await preloadContentAnalyzer();
});

describe('yes or no, read from the reply', () => {
  it.each([
    // A leading yes/no word settles it, wherever the reply goes next.
    ['Goodness, no - it was the weather, nothing to report', 'no'],
    ['Yes, reference 4821/26', 'yes'],
    ['Nope', 'no'],
    ['はい、お願いします。お迎えは12時頃です。', 'yes'],
    ['いいえ、結構です', 'no'],
    // The answer word said outright after the reasons, and a noun negated by its prefix.
    ['パソコンは使えますが、オンラインは不安でして。教室がいいので、いいえでお願いします', 'no'],
    ['不可', 'no'],
    // Otherwise the first sentence's predicate.
    ['We will be driving, so one space please', 'yes'],
    ["We haven't reported it yet", 'no'],
    ['Nothing to declare', 'no'],
    ['I hold one, got it in 2019', 'yes'],
    ['利用します', 'yes'],
    ['使いません', 'no'],
    ['した', 'yes'],
    ['けが人はいません', 'no'],
    ['飼う予定はないです', 'no'],
    ['特にありません', 'no'],
    ['高血圧で薬を飲んでいます', 'yes'],
    ['膝を手術して、今リハビリ中です', 'yes'],
    ['首が少し痛いです。むちうちかもしれません', 'yes'],
    ['家が少し遠いので、バスは使わせていただきたいです', 'yes'],
    ['私も娘も、けがはありませんでした。本当にほっとしました。', 'no'],
    ['子どもの頃から卵アレルギーがあります。薬は今まで問題なかったと思います。', 'yes'],
    // A later sentence that opens with a contrast overrides the first.
    ['2024年にぎっくり腰をやりまして。でももう治っていて、今は通院していません', 'no'],
    ['保険はまだ入っていないんですが、入ったほうがいいですか', 'no'],
    // A hedge on a side remark does not hide the answer.
    ['遅れるかもしれませんが、参加します', 'yes'],
    ['アレルギーは特にないんですけど、小児喘息があって、吸入薬を持たせてます。', 'yes'],
  ])('%s → %s', (reply, polarity) => {
    expect(answerPolarity(reply)).toBe(polarity);
  });

  it.each([
    "I'm not sure",
    "We haven't decided yet",
    '入っているかどうか、わかりません',
    'わかりません。検査を受けたことがないので…',
    'ちょっとわからないです',
    // A clause of not knowing, or only a guess, leaves the question open too.
    '会社で入っているかもしれないんですけど、よくわからないです',
    '入っているかもしれません',
    "Maybe, I'd have to check",
    'I might have one somewhere',
  ])('not knowing is no answer: %s', (reply) => {
    expect(answerPolarity(reply)).toBeNull();
  });

  it('a yes/no field takes "No thanks" as no and a form\'s own pair as yes/no', () => {
    expect(extractYesNo('No thanks', ['Yes', 'No']).value).toBe('no');
    expect(extractYesNo('skip').value).toBeNull();
    expect(extractYesNo('しないです', ['利用する', 'しない']).value).toBe('no');
    expect(extractYesNo('不要', ['要', '不要']).value).toBe('no');
    expect(extractYesNo('要', ['要', '不要']).value).toBe('yes');
  });
});

describe('a negative denied (issue 33)', () => {
  it('reads a denied negative and a denied reason to decline as yes, declining and plain negatives as no', () => {
    expect(answerPolarity('二次会も行かないわけがないでしょう（笑）')).toBe('yes');
    expect(answerPolarity('断る理由がありません！もちろん行きます')).toBe('yes');
    expect(answerPolarity('遠慮する必要はありません')).toBe('yes');
    expect(answerPolarity('今回は遠慮します')).toBe('no');
    expect(answerPolarity('行きません')).toBe('no');
  });
});

describe('saying yes to a reading put to the respondent', () => {
  it.each(['Yes', "Yes, that's right", 'correct', 'yep', 'はい', 'はい、そうです。', 'そうです', 'その通りです', '大丈夫です'])(
    '%j confirms',
    (reply) => {
      expect(affirms(reply)).toBe(true);
    },
  );

  // An affirmative statement is an answer given again, not a yes: 「空き巣に入られました」 repeated after
  // "Just to check: 「その他」?" must not store 「その他」.
  it.each(['空き巣に入られました', 'I had the flu', 'broken on arrival', 'いいえ、違います', 'No', 'not quite'])('%j does not', (reply) => {
    expect(affirms(reply)).toBe(false);
  });
});
