import { describe, expect, it } from 'vitest';
import { detectLanguageChoice, scriptLanguage } from '@convo/forms';

describe('detectLanguageChoice', () => {
  it.each([
    ['日本語', 'ja'],
    ['日本語でお願いします', 'ja'],
    ['にほんご', 'ja'],
    ['ニホンゴで', 'ja'],
    ['Japanese', 'ja'],
    ['japanese please', 'ja'],
    ['English please', 'en'],
    ['英語', 'en'],
    ['英語でお願いします', 'en'],
    ['えいご', 'en'],
    ['in English', 'en'],
    ['EN', 'en'],
    ['en.', 'en'],
    ['ja', 'ja'],
    ['JP', 'ja'],
  ] as const)('understands %j as a choice of %s', (text, language) => {
    expect(detectLanguageChoice(text)).toEqual({ language, requested: null });
  });

  it.each([
    ['Français', 'fr'],
    ['French', 'fr'],
    ['フランス語', 'fr'],
    ['Deutsch bitte', 'de'],
    ['中文', 'zh'],
    ['スペイン語でお願いします', 'es'],
    ['Korean', 'ko'],
  ])('recognises %j as %s but does not choose an unsupported language', (text, code) => {
    expect(detectLanguageChoice(text)).toEqual({ language: null, requested: code });
  });

  it('understands what other languages call English ("anglais", "Englisch")', () => {
    expect(detectLanguageChoice('anglais').language).toBe('en');
    expect(detectLanguageChoice('Englisch').language).toBe('en');
  });

  it('prefers a supported language when a reply names several ("Spanish or English")', () => {
    expect(detectLanguageChoice('Spanish or English').language).toBe('en');
  });

  it('skips a language the reply rules out ("日本語ではなく英語で", "not Japanese")', () => {
    expect(detectLanguageChoice('日本語ではなく英語で').language).toBe('en');
    expect(detectLanguageChoice('not Japanese').language).toBe('en');
  });

  it('falls back to Japanese for a reply written in Japanese that names no language', () => {
    expect(detectLanguageChoice('はい、よろしくお願いします')).toEqual({ language: 'ja', requested: null });
    expect(detectLanguageChoice('こんにちは')).toEqual({ language: 'ja', requested: null });
  });

  it('falls back to English only for a plausible English reply ("hi", "hello", "ok")', () => {
    expect(detectLanguageChoice('hi').language).toBe('en');
    expect(detectLanguageChoice('Hello!').language).toBe('en');
    expect(detectLanguageChoice("ok let's go").language).toBe('en');
  });

  it('does not guess from Latin letters that are not English ("bonjour", "hola")', () => {
    expect(detectLanguageChoice('bonjour')).toEqual({ language: null, requested: null });
    expect(detectLanguageChoice('hola')).toEqual({ language: null, requested: null });
  });

  it('returns nothing for replies without letters', () => {
    expect(detectLanguageChoice('?')).toEqual({ language: null, requested: null });
    expect(detectLanguageChoice('123')).toEqual({ language: null, requested: null });
    expect(detectLanguageChoice('   ')).toEqual({ language: null, requested: null });
  });
});

describe('scriptLanguage', () => {
  it('reads mostly kana/kanji as Japanese and mostly Latin letters as English', () => {
    expect(scriptLanguage('東京に住んでいます')).toBe('ja');
    expect(scriptLanguage('ＯＫです、よろしく')).toBe('ja');
    expect(scriptLanguage('I live in Tokyo')).toBe('en');
  });

  it('returns null without letters of either script', () => {
    expect(scriptLanguage('12345')).toBeNull();
    expect(scriptLanguage('🙂')).toBeNull();
    expect(scriptLanguage('Привет')).toBeNull();
  });
});
