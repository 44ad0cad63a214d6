import { beforeAll, describe, expect, it } from 'vitest';
import { englishGlosses } from '@convo/text';
import { contentStems, crossLanguagePicks } from '@convo/forms/internal/nlu/bilingual';
import { preloadJapanese } from '@convo/forms/internal/nlu/japanese';
import { matchOption } from '@convo/forms/internal/nlu/options';
import { completionText } from '../../services/interviewer/src/phrasing.js';

beforeAll(async () => {
  await preloadJapanese();
});

describe('the vendored EDICT word list', () => {
  it('glosses common words and loanwords', () => {
    expect(englishGlosses('和室')).toContain('japanese-style room');
    expect(englishGlosses('コンパクト')).toContain('compact');
    expect(englishGlosses('存在しない語')).toEqual([]);
  });

  it('compares English by stemmed content words', () => {
    expect(contentStems('The Japanese-style rooms')).toEqual(['japanes', 'style', 'room']);
  });
});

describe('a choice answered in the other language', () => {
  it.each([
    ['A compact car, please', ['コンパクト', 'セダン', 'ミニバン'], 'コンパクト'],
    ['A Japanese-style tatami room, please', ['和室', '洋室'], '和室'],
    // "middle school" said as one phrase outranks "grade … school" spread over the sentence.
    ["It's a middle school class — grade 8 at an international school", ['小学校', '中学校', '高校'], '中学校'],
    ['一般でお願いします', ['General', 'VIP', 'Student'], 'General'],
    ['夜勤を希望します', ['Day', 'Evening', 'Night'], 'Night'],
    ['アパートです(賃貸)。', ['House', 'Apartment/Condo', 'Mobile home', 'Other'], 'Apartment/Condo'],
    ['フルグルーミングでお願いします。', ['Bath & Tidy', 'Full Groom', 'Nails Only'], 'Full Groom'],
  ])('%s → %s', (reply, options, want) => {
    expect(matchOption(reply, options)).toEqual({ option: want });
  });

  it('leaves a word said with 「ではなく」 out', () => {
    expect(
      crossLanguagePicks('夜勤ではなく', [
        { option: 'Night', keys: ['night'] },
        { option: 'Day', keys: ['day'] },
      ]),
    ).toEqual([]);
  });

  it('reads nothing across languages when the reply and the options share a script', () => {
    expect(crossLanguagePicks('a compact one', [{ option: 'Compact', keys: ['compact'] }])).toEqual([]);
  });

  it('matches a kanji option written in kana', () => {
    expect(matchOption('はじめてです', ['初めて', '初級', '中級'])).toEqual({ option: '初めて' });
  });

  it('shows a Japanese value romanised in an English summary', () => {
    const text = completionText('en', [{ label: 'Car class', value: 'コンパクト', status: 'done' }]);
    expect(text).toContain('Car class: konpakuto');
    expect(text).not.toMatch(/[\u30a0-\u30ff]/);
  });
});
