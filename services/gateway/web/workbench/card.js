// @ts-check
/**
 * One problem of the worksheet as a card: its sections (each with an editor
 * that shows the AI suggestions beside it), the consistency indicator
 * (✅ / ⚠️ / ❌, checked again after every change), the issues with a one-click
 * auto-fix to approve or reject, undo, and a box to ask the agent, which shows
 * what it did and the problem before and after.
 *
 * Every edit names the version it was made against; a stale one (409) shows
 * the problem as it is now and says the change was not saved.
 *
 * Read-only (the page holds only the worksheet's share token): no editor,
 * undo, auto-fix or agent; each section offers its suggestions instead, and
 * the consistency check runs as for the owner.
 */

import { h, langOf } from '../lib/dom.js';
import { ApiError } from '/lib/convo-client.js';
import { consistencyState, currentProblemOf, FIX_ORDER } from './api.js';
import { label, tr } from './i18n.js';
import { comparison, fieldLabel, fieldLabelKey, fieldValue, qualityComparison } from './view.js';

/** @typedef {import('./i18n.js').Lang} Lang */
/** @typedef {import('./i18n.js').Key} Key */
/** @typedef {import('./i18n.js').Vars} Vars */
/** @typedef {import('./api.js').Problem} Problem */
/** @typedef {import('./api.js').ConsistencyReport} ConsistencyReport */
/** @typedef {import('./api.js').AutoFixResponse} AutoFixResponse */
/** @typedef {import('./api.js').AgentResult} AgentResult */
/** @typedef {import('./api.js').EditableField} EditableField */
/** @typedef {'prompt' | 'choices' | 'explanation' | 'modelAnswer'} Section */
/** @typedef {'ok' | 'warn' | 'bad' | 'checking' | 'unknown'} IndicatorState */

/**
 * @typedef {object} CardContext
 * @property {import('./api.js').WorkbenchApi} api
 * @property {() => Lang} lang the page language now
 * @property {Lang} contentLang the worksheet's language
 * @property {(text: string) => void} announce says it in the page's live region
 * @property {() => void} onChecked a card's indicator changed
 * @property {boolean} readOnly only the share token is held: nothing can be changed
 */

/** @type {Record<Section, Key>} */
const EDIT_KEYS = { prompt: 'editPrompt', choices: 'editChoices', explanation: 'editExplanation', modelAnswer: 'editModelAnswer' };
/** @type {Record<Section, Key>} */
const SUGGEST_KEYS = {
  prompt: 'suggestPrompt',
  choices: 'suggestChoices',
  explanation: 'suggestExplanation',
  modelAnswer: 'suggestModelAnswer',
};
/** @type {Record<IndicatorState, Key>} */
const STATE_KEYS = { ok: 'stateOk', warn: 'stateWarn', bad: 'stateBad', checking: 'stateChecking', unknown: 'stateUnknown' };
/** @type {Record<IndicatorState, string>} */
export const STATE_ICONS = { ok: '✅', warn: '⚠️', bad: '❌', checking: '⏳', unknown: '❔' };
/** Fields the before/after comparison shows, in this order. */
const SHOWN_FIELDS = /** @type {const} */ (['prompt', 'choices', 'correctChoiceIndex', 'modelAnswer', 'rubric', 'explanation']);
/** @type {Key[]} */
const QUICK_REQUESTS = ['quickSpecify', 'quickImprove', 'quickCheck'];

/**
 * @typedef {object} OpenEditor
 * @property {Section} section
 * @property {number} version the problem's version when the editor opened: the save names it
 * @property {HTMLFormElement} form
 * @property {HTMLTextAreaElement | null} textarea
 * @property {HTMLInputElement[]} inputs the four choices
 * @property {HTMLInputElement[]} radios which one is correct
 */

export class ProblemCard {
  /** @param {Problem} problem @param {CardContext} ctx */
  constructor(problem, ctx) {
    this.problem = problem;
    this.ctx = ctx;
    /** @type {ConsistencyReport | null} */
    this.report = null;
    /** @type {IndicatorState} */
    this.state = 'unknown';
    /** @type {{ version: number, data: import('./api.js').Suggestions } | null} */
    this.suggestionCache = null;
    /** @type {OpenEditor | null} */
    this.editor = null;
    /** Read-only: the section whose suggestions are shown. @type {Section | null} */
    this.suggestionsShown = null;
    /** @type {{ version: number, fix: AutoFixResponse } | null} */
    this.proposal = null;
    this.busy = false;
    this.checkSeq = 0;
    /** @type {Array<HTMLButtonElement | HTMLInputElement | HTMLTextAreaElement>} */
    this.disabledWhileBusy = [];
    this.prefix = `wb-p${problem.index}`;
    /** @type {Map<Section, { body: HTMLElement, edit: HTMLButtonElement, slot: HTMLElement }>} */
    this.sections = new Map();
    const lang = this.lang;
    this.title = h('h3', { id: `${this.prefix}-title`, tabindex: '-1' }, label(h('span'), lang, 'problemN', { n: problem.index }));
    this.indicatorIcon = h('span', { class: 'indicator-icon', 'aria-hidden': 'true' });
    this.indicatorText = h('span', { class: 'indicator-text' });
    this.indicator = h('p', { class: 'indicator', 'data-testid': 'consistency' }, this.indicatorIcon, ' ', this.indicatorText);
    this.versionEl = h('span', { class: 'version', 'data-testid': 'version' });
    this.undoButton = label(h('button', { type: 'button', class: 'undo' }), lang, 'undo');
    this.undoButton.addEventListener('click', () => void this.undo());
    this.note = h('p', { class: 'card-note', 'data-testid': 'card-note', hidden: true });
    this.issuesSlot = h('div', { class: 'issues-slot' });
    this.proposalSlot = h('div', { class: 'proposal-slot' });
    this.agentInput = h('input', {
      type: 'text',
      id: `${this.prefix}-agent-input`,
      name: 'request',
      maxlength: 2000,
      autocomplete: 'off',
      required: true,
    });
    this.agentResult = h('div', { class: 'agent-result-slot' });
    this.agentDetails = this.buildAgentBox();
    this.root = this.build();
    this.renderValues();
    this.setIndicator('unknown');
  }

  get lang() {
    return this.ctx.lang();
  }

  /** @returns {Section[]} */
  get sectionNames() {
    return this.problem.type === 'multiple_choice' ? ['prompt', 'choices', 'explanation'] : ['prompt', 'modelAnswer', 'explanation'];
  }

  // ---- building ---------------------------------------------------------

  build() {
    const lang = this.lang;
    const p = this.problem;
    const titleId = `${this.prefix}-title`;
    const head = h(
      'header',
      { class: 'card-head' },
      h(
        'div',
        { class: 'card-title' },
        this.title,
        label(h('span', { class: 'badge type' }), lang, p.type === 'multiple_choice' ? 'typeMc' : 'typeWritten'),
      ),
      h('div', { class: 'card-status' }, this.indicator, this.versionEl, this.ctx.readOnly ? null : this.undoButton),
    );
    return h(
      'article',
      {
        class: 'problem-card',
        id: this.prefix,
        'aria-labelledby': titleId,
        'data-testid': 'problem-card',
        'data-problem-id': p.id,
        'data-index': p.index,
        'data-type': p.type,
      },
      head,
      this.note,
      this.sectionNames.map((section) => this.buildSection(section)),
      this.issuesSlot,
      this.proposalSlot,
      // The agent changes the problem: a reader has no use for it.
      this.ctx.readOnly ? null : this.agentDetails,
    );
  }

  /** @param {Section} section */
  buildSection(section) {
    const lang = this.lang;
    const titleId = `${this.prefix}-${section}-title`;
    const slotId = `${this.prefix}-${section}-editor`;
    const readOnly = this.ctx.readOnly;
    const edit = label(
      h('button', { type: 'button', class: 'edit', 'aria-expanded': 'false', 'aria-controls': slotId }),
      lang,
      (readOnly ? SUGGEST_KEYS : EDIT_KEYS)[section],
    );
    edit.addEventListener('click', () => (readOnly ? this.toggleSuggestions(section) : this.toggleEditor(section)));
    const body = h('div', { class: 'section-body', 'data-testid': section });
    const slot = h('div', { class: 'editor-slot', id: slotId });
    this.sections.set(section, { body, edit, slot });
    // Not <section>: ten cards of the same three sections would be thirty regions of the same names.
    return h(
      'div',
      { class: 'field-section', 'data-section': section, role: 'group', 'aria-labelledby': titleId },
      h('div', { class: 'section-head' }, fieldLabel('h4', section, lang, { id: titleId }), edit),
      body,
      slot,
    );
  }

  buildAgentBox() {
    const lang = this.lang;
    const inputId = this.agentInput.id;
    const quickId = `${this.prefix}-agent-quick`;
    const send = label(h('button', { type: 'submit' }), lang, 'agentSend');
    const quick = QUICK_REQUESTS.map((key) => {
      const button = label(h('button', { type: 'button', class: 'chip' }), lang, key);
      // The words on the button, in the page language now, are the request.
      button.addEventListener('click', () => void this.ask(button.textContent ?? tr(this.lang, key)));
      return button;
    });
    const form = h(
      'form',
      { class: 'agent-form' },
      label(h('label', { for: inputId }), lang, 'agentRequest'),
      h('div', { class: 'agent-row' }, this.agentInput, send),
      h(
        'div',
        { class: 'chips', role: 'group', 'aria-labelledby': quickId },
        label(h('span', { id: quickId, class: 'chips-label' }), lang, 'quickRequests'),
        quick,
      ),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const request = this.agentInput.value.trim();
      if (request !== '') void this.ask(request);
    });
    return h(
      'details',
      { class: 'agent', 'data-testid': 'agent' },
      h('summary', {}, label(h('span'), lang, 'agentTitle')),
      form,
      this.agentResult,
    );
  }

  // ---- showing ----------------------------------------------------------

  /** @param {Problem} problem */
  setProblem(problem) {
    this.problem = problem;
    // A proposal made for another version cannot be approved as it is.
    if (this.proposal && this.proposal.version !== problem.version) {
      this.proposal = null;
      this.renderProposal();
    }
    this.renderValues();
  }

  renderValues() {
    const lang = this.lang;
    const p = this.problem;
    const content = this.ctx.contentLang;
    for (const [section, { body }] of this.sections) {
      /** @type {HTMLElement[]} */
      const parts = [fieldValue(section, p[section], p, lang, content)];
      if (section === 'modelAnswer' && p.rubric && p.rubric.length > 0) {
        parts.push(fieldLabel('h5', 'rubric', lang), fieldValue('rubric', p.rubric, p, lang, content));
      }
      body.replaceChildren(...parts);
    }
    label(this.versionEl, lang, 'version', { v: p.version });
    this.root.dataset.version = String(p.version);
  }

  /** @param {IndicatorState} state */
  setIndicator(state) {
    this.state = state;
    this.indicator.dataset.state = state;
    this.indicatorIcon.textContent = STATE_ICONS[state];
    label(this.indicatorText, this.lang, STATE_KEYS[state]);
    this.root.dataset.consistency = state;
    this.ctx.onChecked();
  }

  /** What the indicator says, for the live region. */
  describeState() {
    const lang = this.lang;
    const stateText = `${STATE_ICONS[this.state]} ${tr(lang, STATE_KEYS[this.state])}`;
    const count = this.report?.issues.length ?? 0;
    const state = count > 0 ? tr(lang, 'issueCount', { state: stateText, count }) : stateText;
    return tr(lang, 'checkedOne', { n: this.problem.index, state });
  }

  renderIssues() {
    const report = this.report;
    if (!report || report.issues.length === 0) {
      this.issuesSlot.replaceChildren();
      return;
    }
    const lang = this.lang;
    const content = this.ctx.contentLang;
    const titleId = `${this.prefix}-issues-title`;
    /** @type {HTMLButtonElement | null} */
    let fix = null;
    if (report.autoFixAvailable && !this.ctx.readOnly) {
      fix = label(h('button', { type: 'button', class: 'primary autofix' }), lang, 'autoFix');
      fix.addEventListener('click', () => void this.requestFix());
    }
    this.issuesSlot.replaceChildren(
      h(
        'div',
        { class: `issues ${this.state}`, role: 'group', 'aria-labelledby': titleId, 'data-testid': 'issues' },
        label(h('h4', { id: titleId }), lang, 'issues'),
        h(
          'ul',
          {},
          report.issues.map((issue) =>
            h(
              'li',
              { class: `issue ${issue.severity}`, 'data-kind': issue.kind, 'data-field': issue.field },
              label(
                h('span', { class: `badge ${issue.severity}` }),
                lang,
                issue.severity === 'error' ? 'severityError' : 'severityWarning',
              ),
              ' ',
              fieldLabel('span', issue.field, lang, { class: 'issue-field' }),
              ' ',
              h('span', { class: 'issue-text', lang: content, text: issue.issue }),
              issue.suggestion ? label(h('span', { class: 'issue-suggestion' }), lang, 'suggestion', { text: issue.suggestion }) : null,
            ),
          ),
        ),
        fix,
      ),
    );
  }

  renderProposal() {
    const proposal = this.proposal;
    if (!proposal) {
      this.proposalSlot.replaceChildren();
      return;
    }
    const lang = this.lang;
    const current = this.problem;
    const { fixes, confidence } = proposal.fix;
    const proposed = { ...current, ...fixes };
    const rows = FIX_ORDER.filter((field) => fixes[field] !== undefined).map((field) => ({
      field,
      before: current[field],
      after: fixes[field],
      beforeContext: current,
      afterContext: proposed,
    }));
    const titleId = `${this.prefix}-proposal-title`;
    const approve = label(h('button', { type: 'button', class: 'primary', disabled: rows.length === 0 }), lang, 'approve');
    const reject = label(h('button', { type: 'button' }), lang, 'reject');
    approve.addEventListener('click', () => void this.approve());
    reject.addEventListener('click', () => this.reject());
    this.proposalSlot.replaceChildren(
      h(
        'div',
        { class: 'proposal', role: 'group', 'aria-labelledby': titleId, 'data-testid': 'proposal' },
        label(h('h4', { id: titleId, tabindex: '-1' }), lang, 'proposal'),
        label(h('p', { class: 'confidence', 'data-testid': 'confidence' }), lang, 'confidence', { pct: Math.round(confidence * 100) }),
        rows.length > 0
          ? comparison(rows, lang, this.ctx.contentLang, `${this.prefix}-fix`)
          : label(h('p', { class: 'muted' }), lang, 'noFix'),
        h('div', { class: 'actions' }, approve, reject),
      ),
    );
  }

  /** @param {AgentResult} result */
  renderAgentResult(result) {
    const lang = this.lang;
    const before = result.before.problem;
    const after = result.after.problem;
    const rows = SHOWN_FIELDS.filter(
      (field) => result.changed.includes(field) || JSON.stringify(before[field]) !== JSON.stringify(after[field]),
    ).map((field) => ({
      field,
      before: before[field],
      after: after[field],
      beforeContext: before,
      afterContext: after,
    }));
    const titleId = `${this.prefix}-agent-result-title`;
    this.agentResult.replaceChildren(
      h(
        'div',
        { class: 'agent-result', 'data-testid': 'agent-result', 'data-intent': result.intent, role: 'group', 'aria-labelledby': titleId },
        label(h('h4', { id: titleId, tabindex: '-1' }), lang, 'agentMessage'),
        h('p', { class: 'agent-message', lang: langOf(result.message), 'data-testid': 'agent-message', text: result.message }),
        label(h('h4'), lang, 'toolsRun'),
        h(
          'ol',
          { class: 'tools', 'data-testid': 'tools' },
          result.actions.map((action) =>
            h(
              'li',
              { 'data-tool': action.tool, 'data-status': action.status },
              h('code', { text: action.tool }),
              ' ',
              label(
                h('span', { class: `badge ${action.status === 'success' ? 'ok' : 'error'}` }),
                lang,
                action.status === 'success' ? 'toolOk' : 'toolError',
              ),
              ' ',
              h('span', { class: 'tool-summary', lang: langOf(action.summary), text: action.summary }),
            ),
          ),
        ),
        label(h('h4'), lang, 'comparison'),
        rows.length > 0
          ? comparison(rows, lang, this.ctx.contentLang, `${this.prefix}-agent`)
          : label(h('p', { class: 'muted' }), lang, 'noChanges'),
        label(h('h4'), lang, 'quality'),
        qualityComparison(result.before.quality, result.after.quality, lang, `${this.prefix}-agent`),
      ),
    );
  }

  /** @param {Key} key @param {Vars} vars */
  showNote(key, vars) {
    label(this.note, this.lang, key, vars);
    this.note.hidden = false;
  }

  clearNote() {
    this.note.hidden = true;
    this.note.textContent = '';
    this.note.removeAttribute('data-wb-i18n');
  }

  // ---- editing ----------------------------------------------------------

  /** @param {Section} section */
  toggleEditor(section) {
    const open = this.editor?.section;
    this.closeEditor(false);
    if (open !== section) this.openEditor(section);
  }

  /** @param {Section} section */
  openEditor(section) {
    const parts = this.sections.get(section);
    if (!parts) return;
    const lang = this.lang;
    const content = this.ctx.contentLang;
    const p = this.problem;
    const save = label(h('button', { type: 'submit', class: 'primary' }), lang, 'save');
    const cancel = label(h('button', { type: 'button' }), lang, 'cancel');
    cancel.addEventListener('click', () => this.closeEditor(true));
    const actions = h('div', { class: 'actions' }, save, cancel);

    /** @type {HTMLTextAreaElement | null} */
    let textarea = null;
    /** @type {HTMLInputElement[]} */
    let inputs = [];
    /** @type {HTMLInputElement[]} */
    let radios = [];
    /** @type {HTMLElement} */
    let main;
    if (section === 'choices') {
      const choices = p.choices ?? ['', '', '', ''];
      inputs = choices.map((choice, i) =>
        h('input', {
          type: 'text',
          id: `${this.prefix}-choice-${i}`,
          value: choice,
          required: true,
          maxlength: 500,
          lang: content,
          autocomplete: 'off',
        }),
      );
      radios = choices.map((_, i) =>
        h('input', {
          type: 'radio',
          id: `${this.prefix}-correct-${i}`,
          name: `${this.prefix}-correct`,
          value: String(i),
          checked: i === p.correctChoiceIndex,
        }),
      );
      main = h(
        'div',
        { class: 'editor-main' },
        h(
          'fieldset',
          { class: 'choice-inputs' },
          label(h('legend', { class: 'visually-hidden' }), lang, 'choices'),
          inputs.map((input, i) =>
            h('div', { class: 'choice-row' }, label(h('label', { for: input.id }), lang, 'choiceN', { n: i + 1 }), input),
          ),
        ),
        h(
          'fieldset',
          { class: 'correct-picker' },
          label(h('legend'), lang, 'correctChoiceLegend'),
          h(
            'div',
            { class: 'radio-row' },
            radios.map((radio, i) => h('label', { class: 'radio-pill' }, radio, label(h('span'), lang, 'choiceN', { n: i + 1 }))),
          ),
        ),
        actions,
      );
    } else {
      const id = `${this.prefix}-${section}-input`;
      textarea = h('textarea', { id, rows: section === 'prompt' ? 3 : 5, required: true, maxlength: 4000, lang: content });
      textarea.value = String(p[section] ?? '');
      main = h('div', { class: 'editor-main' }, fieldLabel('label', section, lang, { for: id }), textarea, actions);
    }

    const { box: suggestions, titleId: suggestionsTitle } = this.suggestionsBox(section);
    const form = h('form', { class: 'editor', 'data-testid': 'editor', 'data-section': section }, main, suggestions);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.save();
    });
    form.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.closeEditor(true);
    });
    this.editor = { section, version: p.version, form, textarea, inputs, radios };
    parts.slot.replaceChildren(form);
    parts.body.hidden = true;
    parts.edit.setAttribute('aria-expanded', 'true');
    (textarea ?? inputs[0])?.focus();
    void this.loadSuggestions(section, suggestions, suggestionsTitle);
  }

  /**
   * Read-only: shows the section's suggestions under its value, or hides them.
   * @param {Section} section
   */
  toggleSuggestions(section) {
    const open = this.suggestionsShown;
    if (open) {
      this.suggestionsShown = null;
      const parts = this.sections.get(open);
      parts?.slot.replaceChildren();
      parts?.edit.setAttribute('aria-expanded', 'false');
    }
    if (open === section) return;
    const parts = this.sections.get(section);
    if (!parts) return;
    const { box, titleId } = this.suggestionsBox(section);
    this.suggestionsShown = section;
    parts.slot.replaceChildren(box);
    parts.edit.setAttribute('aria-expanded', 'true');
    void this.loadSuggestions(section, box, titleId);
  }

  /**
   * The section's suggestions box while they load (the editor's and the read-only view's alike; loadSuggestions fills it).
   * @param {Section} section
   */
  suggestionsBox(section) {
    const titleId = `${this.prefix}-${section}-suggestions-title`;
    const box = h(
      'div',
      { class: 'suggestions', role: 'group', 'aria-labelledby': titleId, 'aria-busy': 'true', 'data-testid': 'suggestions' },
      label(h('h5', { id: titleId }), this.lang, 'suggestions'),
      label(h('p', { class: 'muted' }), this.lang, 'suggestionsLoading'),
    );
    return { box, titleId };
  }

  /** @param {boolean} focusEdit put the focus back on the section's edit button */
  closeEditor(focusEdit) {
    const open = this.editor;
    if (!open) return;
    this.editor = null;
    const parts = this.sections.get(open.section);
    if (!parts) return;
    parts.slot.replaceChildren();
    parts.body.hidden = false;
    parts.edit.setAttribute('aria-expanded', 'false');
    if (focusEdit) parts.edit.focus();
  }

  /**
   * The suggestions for the problem's version (fetched once per version), next to the editor.
   * @param {Section} section @param {HTMLElement} box @param {string} titleId
   */
  async loadSuggestions(section, box, titleId) {
    const lang = this.lang;
    const title = label(h('h5', { id: titleId }), lang, 'suggestions');
    try {
      const version = this.problem.version;
      const data = this.suggestionCache?.version === version ? this.suggestionCache.data : await this.ctx.api.suggestions(this.problem.id);
      this.suggestionCache = { version, data };
      // The model answer has no section of its own: the explanation's ideas fit it.
      const ideas = section === 'modelAnswer' ? data.explanation : (data[section] ?? []);
      box.replaceChildren(
        title,
        ideas.length > 0
          ? h(
              'ul',
              { class: 'suggestion-list' },
              ideas.map((idea) => h('li', { lang: this.ctx.contentLang, text: idea })),
            )
          : label(h('p', { class: 'muted' }), lang, 'suggestionsNone'),
      );
    } catch (err) {
      box.replaceChildren(title, label(h('p', { class: 'muted' }), lang, 'suggestionsFailed', { message: messageOf(err) }));
    } finally {
      box.removeAttribute('aria-busy');
    }
  }

  async save() {
    const open = this.editor;
    if (!open) return;
    const p = this.problem;
    /** @type {Array<[EditableField, unknown]>} */
    const changes = [];
    if (open.section === 'choices') {
      const values = open.inputs.map((input) => input.value.trim());
      const correct = open.radios.findIndex((radio) => radio.checked);
      if (JSON.stringify(values) !== JSON.stringify(p.choices)) changes.push(['choices', values]);
      if (correct >= 0 && correct !== p.correctChoiceIndex) changes.push(['correctChoiceIndex', correct]);
    } else {
      const value = open.textarea?.value.trim() ?? '';
      if (value !== (p[open.section] ?? '')) changes.push([open.section, value]);
    }
    if (changes.length === 0) {
      this.closeEditor(true);
      this.ctx.announce(tr(this.lang, 'unchanged', { n: p.index }));
      return;
    }
    await this.run(async () => {
      await this.applyChanges(changes, open.version);
      this.closeEditor(false);
      this.ctx.announce(tr(this.lang, 'saved', { n: this.problem.index }));
      await this.check();
      return this.sections.get(open.section)?.edit ?? null;
    });
  }

  /**
   * PATCHes one field at a time, each naming the version the previous one made.
   * @param {Array<[EditableField, unknown]>} changes @param {number} version
   */
  async applyChanges(changes, version) {
    let current = version;
    for (const [field, value] of changes) {
      const updated = await this.ctx.api.patchProblem(this.problem.id, { field, value, version: current });
      current = updated.version;
      this.setProblem(updated);
    }
    this.clearNote();
  }

  // ---- consistency and fixes -------------------------------------------

  /**
   * Checks the problem as stored now; only the latest check's answer is shown.
   * @param {boolean} [speak] say the result in the live region
   * @returns {Promise<ConsistencyReport | null>}
   */
  async check(speak = true) {
    const seq = ++this.checkSeq;
    this.setIndicator('checking');
    try {
      const report = await this.ctx.api.checkConsistency(this.problem.id);
      if (seq !== this.checkSeq) return report;
      this.report = report;
      this.setIndicator(consistencyState(report));
      this.renderIssues();
      if (speak) this.ctx.announce(this.describeState());
      return report;
    } catch (err) {
      if (seq !== this.checkSeq) return null;
      this.report = null;
      this.setIndicator('unknown');
      this.renderIssues();
      this.showNote('failed', { n: this.problem.index, message: messageOf(err) });
      if (speak) this.ctx.announce(tr(this.lang, 'failed', { n: this.problem.index, message: messageOf(err) }));
      return null;
    }
  }

  async requestFix() {
    const report = this.report;
    if (!report) return;
    await this.run(async () => {
      this.ctx.announce(tr(this.lang, 'autoFixing'));
      const fix = await this.ctx.api.autoFix(this.problem.id, report.issues);
      this.proposal = { version: this.problem.version, fix };
      this.renderProposal();
      const hasFixes = FIX_ORDER.some((field) => fix.fixes[field] !== undefined);
      this.ctx.announce(
        hasFixes ? tr(this.lang, 'fixReady', { n: this.problem.index, pct: Math.round(fix.confidence * 100) }) : tr(this.lang, 'noFix'),
      );
      return this.proposalSlot.querySelector('h4') ?? null;
    });
  }

  /** Applies the proposal field by field (each PATCH with the version the last one made), then checks again. */
  async approve() {
    const proposal = this.proposal;
    if (!proposal) return;
    await this.run(async () => {
      /** @type {Array<[EditableField, unknown]>} */
      const changes = [];
      for (const field of FIX_ORDER) {
        const value = proposal.fix.fixes[field];
        if (value !== undefined && JSON.stringify(value) !== JSON.stringify(this.problem[field])) changes.push([field, value]);
      }
      await this.applyChanges(changes, proposal.version);
      this.proposal = null;
      this.renderProposal();
      this.ctx.announce(tr(this.lang, 'fixApplied', { n: this.problem.index }));
      await this.check();
      return this.title;
    });
  }

  reject() {
    this.proposal = null;
    this.renderProposal();
    this.ctx.announce(tr(this.lang, 'fixRejected', { n: this.problem.index }));
    (this.issuesSlot.querySelector('button') ?? this.title).focus();
  }

  async undo() {
    await this.run(async () => {
      try {
        this.setProblem(await this.ctx.api.undo(this.problem.id));
      } catch (err) {
        if (err instanceof ApiError && err.code === 'nothing_to_undo') {
          this.ctx.announce(tr(this.lang, 'nothingToUndo', { n: this.problem.index }));
          return null;
        }
        throw err;
      }
      this.closeEditor(false);
      this.clearNote();
      this.ctx.announce(tr(this.lang, 'undone', { n: this.problem.index }));
      await this.check();
      return null;
    });
  }

  // ---- the agent --------------------------------------------------------

  /** @param {string} request */
  async ask(request) {
    await this.run(async () => {
      const n = this.problem.index;
      this.agentDetails.open = true;
      this.agentResult.replaceChildren(
        h('p', { class: 'working', 'data-testid': 'agent-working', text: tr(this.lang, 'agentWorking', { n, request }) }),
      );
      this.ctx.announce(tr(this.lang, 'agentWorking', { n, request }));
      const result = await this.ctx.api.agent(this.problem.id, request);
      this.renderAgentResult(result);
      this.agentInput.value = '';
      // The agent may have edited the problem: show it as stored now, and check it again.
      this.closeEditor(false);
      this.setProblem(await this.ctx.api.getProblem(this.problem.id));
      this.clearNote();
      await this.check(false);
      const lang = this.lang;
      const changed =
        result.changed.length > 0 ? result.changed.map((field) => fieldName(lang, field)).join(', ') : tr(lang, 'agentNothing');
      this.ctx.announce(`${tr(lang, 'agentDone', { n, changed })} ${this.describeState()}`);
      return this.agentResult.querySelector('h4') ?? null;
    });
  }

  // ---- plumbing ---------------------------------------------------------

  /**
   * Runs one action with the card's controls disabled; a 409 shows the problem as it is now.
   * Afterwards the focus goes where the action says, else back where it was.
   * @param {() => Promise<HTMLElement | null>} action
   */
  async run(action) {
    if (this.busy) return;
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    /** @type {HTMLElement | null} */
    let focusTo = null;
    this.setBusy(true);
    try {
      focusTo = await action();
    } catch (err) {
      focusTo = await this.fail(err);
    } finally {
      this.setBusy(false);
    }
    const target = focusTo ?? (focused && focused.isConnected && !(/** @type {HTMLButtonElement} */ (focused).disabled) ? focused : null);
    target?.focus();
  }

  /** @param {unknown} err @returns {Promise<HTMLElement | null>} */
  async fail(err) {
    const n = this.problem.index;
    const current = currentProblemOf(err);
    if (current) {
      this.closeEditor(false);
      this.proposal = null;
      this.renderProposal();
      this.setProblem(current);
      this.showNote('conflict', { n, v: current.version });
      this.ctx.announce(tr(this.lang, 'conflict', { n, v: current.version }));
      await this.check(false);
      return this.title;
    }
    if (this.agentResult.querySelector('[data-testid="agent-working"]')) this.agentResult.replaceChildren();
    this.showNote('failed', { n, message: messageOf(err) });
    this.ctx.announce(tr(this.lang, 'failed', { n, message: messageOf(err) }));
    return null;
  }

  /** @param {boolean} busy */
  setBusy(busy) {
    this.busy = busy;
    if (busy) {
      this.root.setAttribute('aria-busy', 'true');
      this.disabledWhileBusy = [...this.root.querySelectorAll('button, input, textarea')].filter(
        /** @returns {el is HTMLButtonElement | HTMLInputElement | HTMLTextAreaElement} */
        (el) => (el instanceof HTMLButtonElement || el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && !el.disabled,
      );
      for (const el of this.disabledWhileBusy) el.disabled = true;
    } else {
      this.root.removeAttribute('aria-busy');
      for (const el of this.disabledWhileBusy) el.disabled = false;
      this.disabledWhileBusy = [];
    }
  }
}

/** A field's name in the page language (as named by the server when the page has no word for it). @param {Lang} lang @param {string} field */
function fieldName(lang, field) {
  const key = fieldLabelKey(field);
  return key ? tr(lang, key) : field;
}

/** @param {unknown} err */
function messageOf(err) {
  return err instanceof Error ? err.message : String(err);
}
