import { beforeAll, describe, expect, it, vi } from 'vitest';
import { preloadJapanese } from '@convo/forms/internal/nlu/japanese';
import { extractPersonName } from '@convo/forms/internal/nlu/person-name';
import { normalizeText } from '@convo/forms/internal/nlu/text';

beforeAll(async () => {
  await preloadJapanese();
});

/** The reviewer normalizes replies before extracting, so the tests do too (em-dashes become '-'). */
function name(reply: string, parts: 1 | 2 = 2) {
  return extractPersonName(normalizeText(reply), parts);
}

const found = (value: string) => ({ value, rejected: null });
const incomplete = (word: string) => ({ value: null, rejected: word, problem: 'incomplete_name' });
const nothing = { value: null, rejected: null };

describe('a reply that is only a name, typed any way', () => {
  it.each([
    'Jane Doe',
    'jane doe',
    'JANE DOE',
    "Siobhan O'Shaughnessy",
    'Gwen Morgan-Price',
    'Angus McDonald',
    'Maria de la Cruz',
    'Ludwig van Beethoven',
    'Leonardo da Vinci',
    'Juan del Castillo',
    'Nguyen Van An',
    'Taro Yamada',
    'taro yamada',
    'Jessica Marie Tran',
    'John F. Kennedy',
    'Oluwaseun Adebayo',
    'Hope Davis',
    'Brandon Young',
    // compromise reads these as places; on their own, to a name question, they are names.
    'Susan Park',
    'Grace Hill',
  ])('%s', (reply) => {
    expect(name(reply)).toEqual(found(reply));
  });

  it('leaves out the full stop at the end of the reply', () => {
    expect(name('Jane Doe.')).toEqual(found('Jane Doe'));
  });
});

describe('a name inside chatty text', () => {
  it.each([
    ["Hey! So excited to finally sign up. I'm Brandon Kowalski.", 'Brandon Kowalski'],
    ["I'm Barbara Jean Whitaker", 'Barbara Jean Whitaker'],
    ['My name is Jane Doe', 'Jane Doe'],
    ['My name is Taro Yamada', 'Taro Yamada'],
    ["Hello, I'm Oluwaseun Adebayo", 'Oluwaseun Adebayo'],
    ["Hi, Siobhan O'Shaughnessy here", "Siobhan O'Shaughnessy"],
    ['hi my name is brandon kowalski and i live in ohio', 'brandon kowalski'],
    ['Name: Jane Doe', 'Jane Doe'],
    ['This is Jane Doe-Smith speaking', 'Jane Doe-Smith'],
    ["I'm Jane Doe btw", 'Jane Doe'],
  ])('%s → %s', (reply, value) => {
    expect(name(reply)).toEqual(found(value));
  });

  it('takes the full name over a nickname given later', () => {
    const reply = "G'day! Thanks for the opportunity. My name's Jessica Marie Tran, though most people call me Jess.";
    expect(name(reply)).toEqual(found('Jessica Marie Tran'));
    expect(name(reply, 1)).toEqual(found('Jessica Marie Tran'));
  });

  it('does not take places, sentence openers or greetings for names', () => {
    const reply = "Hi! We're coming over from the States for a Highlands road trip. The main driver will be me, Jennifer Walsh.";
    expect(name(reply)).toEqual(found('Jennifer Walsh'));
    expect(name('Greetings from New York! Kind regards, Priya Raman')).toEqual(found('Priya Raman'));
  });

  it('names someone through a relationship phrase', () => {
    expect(name('My wife, Laura Mitchell')).toEqual(found('Laura Mitchell'));
    expect(name('That would be my brother, Tyler Kowalski. He lives just down the street.')).toEqual(found('Tyler Kowalski'));
    expect(name('My husband Tom Baker will be driving')).toEqual(found('Tom Baker'));
    // A kinship title is no part of the name.
    expect(name("This is Aunt Carol, Marcus's aunt on his mother's side. Carol Ann Jenkins, for your list.")).toEqual(
      found('Carol Ann Jenkins'),
    );
  });
});

describe('titles and self-corrections', () => {
  it.each([
    ['Mrs Gwen Morgan-Price', 'Gwen Morgan-Price'],
    ['Dr. Fatima Haddad', 'Fatima Haddad'],
    ["It's Dr Smith, Dr Alan Smith", 'Alan Smith'],
    ["I'm Professor Alan Turing", 'Alan Turing'],
    ['Hello, I am Ms. Ana María López García', 'Ana María López García'],
    ['Sir Elton John', 'Elton John'],
  ])('%s → %s', (reply, value) => {
    expect(name(reply)).toEqual(found(value));
  });

  it('a title alone with a surname is still one name word', () => {
    expect(name('Mr. and Mrs. Smith')).toEqual(incomplete('Smith'));
    expect(name('Mr Brown')).toEqual(incomplete('Brown'));
  });

  it('keeps the name the respondent corrects to', () => {
    expect(name('Put me down as Dr. Fatima Haddad — actually, just Fatima Haddad is fine')).toEqual(found('Fatima Haddad'));
    expect(name('Jon Smith - sorry, John Smyth')).toEqual(found('John Smyth'));
    expect(name("I'm not Jane Smith, I'm Mary Jones")).toEqual(found('Mary Jones'));
    expect(name('I said Jon Smith but I mean John Smith')).toEqual(found('John Smith'));
  });
});

describe('other facts given with the name', () => {
  it.each([
    ['Tom Fletcher — email is tom.fletcher88@gmail.com', 'Tom Fletcher'],
    ['Sarah Mitchell - mobile is 0455 678 910', 'Sarah Mitchell'],
    ['Jane Doe, and you can reach me at jane@example.com', 'Jane Doe'],
    ['jane.doe@example.com is my email, and my name is Jane Doe', 'Jane Doe'],
    ['Aiko Tanaka, born 12/03/1988, www.aiko.dev', 'Aiko Tanaka'],
  ])('%s → %s', (reply, value) => {
    expect(name(reply)).toEqual(found(value));
  });

  it('does not read a name out of an email address', () => {
    expect(name('my email is tom.fletcher@example.com')).toEqual(nothing);
  });
});

describe('one name word', () => {
  it('is incomplete when a full name is asked', () => {
    expect(name('Taro')).toEqual(incomplete('Taro'));
    expect(name('Jane')).toEqual(incomplete('Jane'));
    expect(name('jane')).toEqual(incomplete('jane'));
    expect(name("O'Brien")).toEqual(incomplete("O'Brien"));
    expect(name('Call me Jess')).toEqual(incomplete('Jess'));
  });

  it('is enough when only a first name or surname is asked', () => {
    expect(name('Taro', 1)).toEqual(found('Taro'));
    expect(name('Jane', 1)).toEqual(found('Jane'));
    expect(name('Call me Jess', 1)).toEqual(found('Jess'));
    expect(name('Morgan-Price', 1)).toEqual(found('Morgan-Price'));
    expect(name('花子です', 1)).toEqual(found('花子'));
    expect(name('佐藤です', 1)).toEqual(found('佐藤'));
  });
});

describe('replies that name nobody', () => {
  it.each([
    "I don't know",
    'skip',
    'Skip this one please',
    'none',
    'I would like to skip the',
    'Hello',
    'Hi there!',
    'Good Morning',
    'Thank you',
    'Sure',
    'Why do you need this?',
    'I live in New York',
    'We flew in from the United States',
    'I Love Pizza',
    'わかりません',
    '知りません',
    'スキップで',
    'こんにちは',
    'はじめまして',
    'よろしくお願いします',
    'はい',
    'いいえ',
    '東京に住んでいます',
    '東京です',
    '会社員です',
    '',
  ])('%j', (reply) => {
    expect(name(reply)).toEqual(nothing);
    expect(name(reply, 1)).toEqual(nothing);
  });
});

describe('Japanese names', () => {
  it.each([
    ['鈴木花子', '鈴木花子'],
    ['山田 太郎', '山田 太郎'],
    ['青木翼です', '青木翼'],
    ['野口浩', '野口浩'],
    ['山田花子と申します', '山田花子'],
    ['山田太郎と申します', '山田太郎'],
    ['鈴木花子と申します', '鈴木花子'],
    ['私の名前は佐々木大輔です', '佐々木大輔'],
    ['あ、はい、よろしくお願いします。鈴木花子と申します。', '鈴木花子'],
    ['はじめまして、渡辺理恵と申します。どうぞよろしくお願いいたします。', '渡辺理恵'],
    ['こんにちは〜。友達に勧められて来ました、山崎恵美です。', '山崎恵美'],
    ['契約者名は上田浩二です', '上田浩二'],
    ['契約者は私、関口美佐子です。', '関口美佐子'],
    ['運転するのは主人なので、主人の名前で、高田浩介でお願いします。', '高田浩介'],
    ['ジョン・スミスです', 'ジョン・スミス'],
    // Given names IPADIC files as place names.
    ['佐々木拓海です', '佐々木拓海'],
    ['松本湊です', '松本湊'],
    ['森田陽向です。', '森田陽向'],
    // An emoji before the name must not shift it.
    ['予約してみました😊 斎藤美穂です!', '斎藤美穂'],
    ['山本大和と申します', '山本大和'],
  ])('%s → %s', (reply, value) => {
    expect(name(reply)).toEqual(found(value));
  });

  it('keeps given names the dictionary only knows in pieces', () => {
    for (const full of ['高田翔真', '伊藤蒼空', '中村心愛', '小林一颯', '加藤琉生', '吉田煌'])
      expect(name(`${full}です`)).toEqual(found(full));
  });

  it('does not take a place that is also a surname for a person', () => {
    expect(name('福岡出身の山田太郎です')).toEqual(found('山田太郎'));
    for (const reply of ['長野に住んでいます', '福岡出身です', '千葉県です']) expect(name(reply, 1)).toEqual(nothing);
  });

  it('takes the full name over the surname said first', () => {
    expect(name('お世話になります。いつもありがとうございます。前田と申します。前田恵子です。')).toEqual(found('前田恵子'));
  });

  it('reads a surname the dictionary files under another kind of proper noun (清水), and a given name in kana', () => {
    expect(name('はい、娘の名前は清水さくらです。名前はひらがなで「さくら」です。')).toEqual(found('清水さくら'));
    expect(name('清水マリアです')).toEqual(found('清水マリア'));
  });

  it('keeps a kana given name the dictionary splits into other words', () => {
    expect(name('田中あやかです')).toEqual(found('田中あやか'));
    expect(name('佐藤まいです')).toEqual(found('佐藤まい'));
    expect(name('佐藤ゆいと申します')).toEqual(found('佐藤ゆい'));
    expect(name('佐藤ひなたでお願いします')).toEqual(found('佐藤ひなた'));
  });

  it('does not take a particle, the copula or an honorific for a given name', () => {
    expect(name('鈴木もです')).toEqual(incomplete('鈴木'));
    expect(name('山田ですが')).toEqual(incomplete('山田'));
    expect(name('山田さん')).toEqual(incomplete('山田'));
    expect(name('鈴木花子様')).toEqual(found('鈴木花子'));
  });

  it('keeps only the name when other facts follow', () => {
    expect(name('村上奈々です。メールはnana.murakami@gmail.comでお願いします。')).toEqual(found('村上奈々'));
    expect(name('佐野恵理子です。1978年生まれです。')).toEqual(found('佐野恵理子'));
    expect(name('鈴木花子、東京都在住です')).toEqual(found('鈴木花子'));
  });

  it('drops a name the respondent takes back', () => {
    expect(name('田中ではなく鈴木一郎です')).toEqual(found('鈴木一郎'));
    expect(name('鈴木一郎、いや、鈴木二郎です')).toEqual(found('鈴木二郎'));
  });

  it('asks for the given name when only one part is there', () => {
    expect(name('花子です')).toEqual(incomplete('花子'));
    expect(name('佐藤です、よろしく')).toEqual(incomplete('佐藤'));
  });
});

describe('a name in the other script', () => {
  it('finds a Latin-script name in a Japanese reply', () => {
    expect(name('John Smithです')).toEqual(found('John Smith'));
    expect(name('名前はMaria Garciaです。よろしくお願いします。')).toEqual(found('Maria Garcia'));
  });

  it('finds a Japanese name in an English reply', () => {
    expect(name('My name is 山田太郎')).toEqual(found('山田太郎'));
    expect(name('Hi, I am 鈴木花子, nice to meet you')).toEqual(found('鈴木花子'));
  });

  it('takes the first of the same name written twice', () => {
    expect(name('Taro Yamada (山田太郎)')).toEqual(found('Taro Yamada'));
  });
});

describe('before the Japanese dictionary has loaded', () => {
  it('falls back to the words before the copula or an introduction', async () => {
    vi.resetModules();
    vi.doMock('@convo/forms/internal/nlu/japanese', () => ({
      morphemes: () => null,
      preloadJapanese: async () => {},
      japaneseReady: () => false,
    }));
    try {
      const { extractPersonName: early } = await import('@convo/forms/internal/nlu/person-name');
      const read = (reply: string, parts: 1 | 2 = 2) => early(normalizeText(reply), parts);
      expect(read('鈴木花子と申します')).toEqual(found('鈴木花子'));
      expect(read('山田 太郎')).toEqual(found('山田 太郎'));
      expect(read('あ、はい、よろしくお願いします。鈴木花子と申します。')).toEqual(found('鈴木花子'));
      expect(read('契約者名は上田浩二です')).toEqual(found('上田浩二'));
      expect(read('運転するのは主人なので、主人の名前で、高田浩介でお願いします。')).toEqual(found('高田浩介'));
      expect(read('前田と申します。前田恵子です。')).toEqual(found('前田恵子'));
      expect(read('花子です')).toEqual(incomplete('花子'));
      expect(read('花子です', 1)).toEqual(found('花子'));
      expect(read('東京に住んでいます')).toEqual(nothing);
      expect(read('こんにちは')).toEqual(nothing);
      // Cruder than the dictionary: without it a place before です reads like a surname.
      expect(read('東京です')).toEqual(incomplete('東京'));
      expect(read("I'm Brandon Kowalski.")).toEqual(found('Brandon Kowalski'));
    } finally {
      vi.doUnmock('@convo/forms/internal/nlu/japanese');
      vi.resetModules();
    }
  });
});

describe('an adverb that restricts a short answer', () => {
  it('is not part of the name', () => {
    expect(name('Just Lucy', 1)).toEqual(found('Lucy'));
    expect(name('Only Tom please', 1)).toEqual(found('Tom'));
    expect(name('just Lucy Evans')).toEqual(found('Lucy Evans'));
  });
});
