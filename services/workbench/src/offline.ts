import { ask, call, type Policy, type ToolOutcome } from '@convo/agent-kit';
import type { WorkbenchContext } from './context.js';
import { type CombinableIntent, type Intent, otherEditIntents } from '@convo/workbench';
import { autoFixer, consistencyChecker, editor, fieldLabel, qualityScorer, suggestionGenerator } from './agent.js';

/** Quality below this after the planned tools: one more improvement of the weakest section (docs/seeds/003). */
const QUALITY_BAR = 0.7;

type Step = {
  tool: 'editor' | 'consistency_checker' | 'suggestion_generator' | 'auto_fixer' | 'quality_scorer';
  section?: 'prompt' | 'choices' | 'explanation';
  instruction?: string;
  /** Which of the request's edits this step makes, when it asks for several. */
  intent?: CombinableIntent;
};

/**
 * The offline problem-management agent: the seed's selectTools by intent,
 * then its needsAdditionalAction rule (not consistent → auto_fixer and check
 * again; quality below 0.7 → improve the weakest section once), one tool per
 * model call, and a summary for the teacher through ask.
 */
export const workbenchPolicy: Policy = (req, tail) => {
  const ctx = req.context as WorkbenchContext;
  const plan = planFor(ctx);
  const done = tail.map((outcome) => outcome.name);
  // The planned tools, in order.
  if (done.length < plan.length) return toolCall(plan[done.length]!, ctx);
  const last = tail.at(-1);
  const lastCheck = [...tail].reverse().find((outcome) => outcome.name === consistencyChecker.name);
  const fixes = tail.filter((outcome) => outcome.name === autoFixer.name).length;
  if (lastCheck && lastCheck.result.isConsistent === false && fixes < 2 && last?.name !== autoFixer.name) return call(autoFixer, {});
  if (last?.name === autoFixer.name && last.status === 'success') return call(consistencyChecker, {});
  if (last?.name === consistencyChecker.name && done.includes(autoFixer.name)) return call(qualityScorer, {});
  const score = lastScore(tail);
  const improvements = tail.filter((outcome) => outcome.name === editor.name && outcome.args.instruction === IMPROVE).length;
  if (score !== null && score.overall < QUALITY_BAR && improvements < 1 && last?.name === qualityScorer.name) {
    return call(editor, { field: weakestSection(score), instruction: IMPROVE, new_value: null, intent: null });
  }
  if (last?.name === editor.name && last.args.instruction === IMPROVE) return call(consistencyChecker, {});
  if (last?.name === consistencyChecker.name && improvements > 0) return call(qualityScorer, {});
  return ask(summary(ctx, tail));
};

const IMPROVE = 'improve the weakest part';

function planFor(ctx: WorkbenchContext): Step[] {
  const section = ctx.section ?? 'prompt';
  switch (ctx.intent) {
    case 'check':
      return [{ tool: 'consistency_checker' }, { tool: 'quality_scorer' }];
    case 'fix':
      return [{ tool: 'consistency_checker' }, { tool: 'auto_fixer' }, { tool: 'quality_scorer' }];
    case 'suggest':
      return [{ tool: 'suggestion_generator' }, { tool: 'quality_scorer' }];
    case 'score':
      return [{ tool: 'quality_scorer' }];
    case 'improve':
      // Case 2 of the seed: score, suggest, edit the weak part, check, score again.
      return [
        { tool: 'quality_scorer' },
        { tool: 'suggestion_generator' },
        { tool: 'editor', section: ctx.section ?? 'explanation', instruction: ctx.request },
        { tool: 'consistency_checker' },
        { tool: 'quality_scorer' },
      ];
    default:
      // Case 1: edit, check (and fix), score; each further edit the request asks for ("easier, and add a hint") after the first.
      return [...editSteps(ctx, section), { tool: 'consistency_checker' }, { tool: 'quality_scorer' }];
  }
}

/**
 * One editor step per edit the request asks for: the first as the request
 * reads, the others by their intent. Rebuilds from the record (easier,
 * harder, translate, topic, choices) go before a hint, which is text added
 * to the prompt the rebuild would replace.
 */
function editSteps(ctx: WorkbenchContext, section: Step['section']): Step[] {
  const others = otherEditIntents(ctx.request, ctx.intent as Intent);
  const steps: Array<Step & { reads: string }> = [
    { tool: 'editor', section, instruction: ctx.request, reads: ctx.intent },
    ...others.map((intent) => ({ tool: 'editor' as const, section, instruction: ctx.request, intent, reads: intent })),
  ];
  const hintLast = (step: { reads: string }) => (step.reads === 'hint' ? 1 : 0);
  return steps.sort((left, right) => hintLast(left) - hintLast(right)).map(({ reads: _reads, ...step }) => step);
}

function toolCall(step: Step, ctx: WorkbenchContext) {
  switch (step.tool) {
    case 'editor':
      return call(editor, {
        field: step.section ?? 'prompt',
        instruction: step.instruction ?? ctx.request,
        new_value: null,
        intent: step.intent ?? null,
      });
    case 'consistency_checker':
      return call(consistencyChecker, {});
    case 'suggestion_generator':
      return call(suggestionGenerator, {});
    case 'auto_fixer':
      return call(autoFixer, {});
    case 'quality_scorer':
      return call(qualityScorer, {});
  }
}

type Score = { overall: number; metrics: Record<string, number> };

function lastScore(tail: ToolOutcome[]): Score | null {
  const scored = [...tail].reverse().find((outcome) => outcome.name === qualityScorer.name && outcome.status === 'success');
  if (!scored) return null;
  return { overall: Number(scored.result.overallScore), metrics: (scored.result.metrics ?? {}) as Record<string, number> };
}

/** Clarity is the prompt's, educational value the explanation's, consistency the choices'. */
function weakestSection(score: Score): 'prompt' | 'choices' | 'explanation' {
  const { clarity = 1, educationalValue = 1, consistency = 1 } = score.metrics;
  const weakest = Math.min(clarity, educationalValue, consistency);
  return weakest === clarity ? 'prompt' : weakest === educationalValue ? 'explanation' : 'choices';
}

function summary(ctx: WorkbenchContext, tail: ToolOutcome[]): string {
  const ja = ctx.language === 'ja';
  // English summaries keep the field names the model and the API use.
  const fieldName = (field: string) => (ja ? fieldLabel(field, 'ja') : field);
  const edits = tail
    .filter((outcome) => (outcome.name === editor.name || outcome.name === autoFixer.name) && outcome.status === 'success')
    .map((outcome) =>
      outcome.name === editor.name
        ? `${((outcome.result.fields as string[] | undefined) ?? [String(outcome.args.field)]).map(fieldName).join(ja ? '・' : ', ')}（${((outcome.result.changes as string[] | undefined) ?? []).join('、')}）`.replace(
            /（）$/,
            '',
          )
        : `${ja ? '自動修正' : 'auto-fix'}: ${((outcome.result.fields as string[] | undefined) ?? [])
            .map(fieldName)
            .join(ja ? '、' : ', ')}`,
    )
    .map((text) => (ja ? text : text.replace('（', ' (').replace(/）$/, ')')));
  // What the editor was asked for and did not do, with its reason in the sheet's language: never reported as a change.
  const notDone = [
    ...new Set(
      tail
        .filter((outcome) => outcome.name === editor.name && outcome.status === 'error' && typeof outcome.result.notDone === 'string')
        .map((outcome) => String(outcome.result.notDone)),
    ),
  ];
  const check = [...tail].reverse().find((outcome) => outcome.name === consistencyChecker.name);
  const score = lastScore(tail);
  const parts = [
    edits.length > 0
      ? ja
        ? `変更: ${edits.join('／')}。`
        : `Changes: ${edits.join('; ')}.`
      : ja
        ? '問題は変更していません。'
        : 'The problem was not changed.',
    notDone.length > 0 ? (ja ? `できなかったこと: ${notDone.join('')}` : `Not done: ${notDone.join(' ')}`) : '',
    ctx.intent === 'suggest' ? suggestionText(tail, ja) : '',
    check
      ? check.result.isConsistent
        ? ja
          ? '整合性: 問題ありません。'
          : 'Consistency: OK.'
        : ja
          ? '整合性: 自動で直せない点が残っています。'
          : 'Consistency: issues remain that could not be fixed automatically.'
      : '',
    score ? (ja ? `品質スコア: ${score.overall}` : `Quality score: ${score.overall}`) : '',
  ];
  return parts.filter(Boolean).join(ja ? '' : ' ');
}

/** When suggestions were asked for, the answer carries them: each section's ideas, in the sheet's language. */
function suggestionText(tail: ToolOutcome[], ja: boolean): string {
  const ideas = [...tail].reverse().find((outcome) => outcome.name === suggestionGenerator.name && outcome.status === 'success')?.result;
  if (!ideas) return '';
  const sections: Array<[string, string, string]> = [
    ['prompt', '問題文', 'Prompt'],
    ['choices', '選択肢', 'Choices'],
    ['explanation', '解説', 'Explanation'],
  ];
  const lines = sections
    .map(([key, jaName, enName]) => {
      const list = ideas[key];
      return Array.isArray(list) && list.length > 0 ? `${ja ? jaName : enName}: ${list.join(ja ? '、' : '; ')}` : null;
    })
    .filter((line) => line !== null);
  return lines.length > 0 ? `${ja ? '改善の提案' : 'Suggestions'} — ${lines.join(ja ? '／' : ' / ')}${ja ? '。' : '.'}` : '';
}
