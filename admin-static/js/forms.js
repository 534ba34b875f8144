// Labelled form controls whose API errors are shown in words next to the field they name.
import { h, nextId } from './dom.js';

export class Form {
  constructor(props = {}) {
    this.el = h('form', { class: props.class || 'form', novalidate: true, 'aria-label': props.label });
    this.slots = new Map();
    this.status = h('p', { class: 'form-status', role: 'status', 'aria-live': 'polite' });
    this.busy = false;
  }

  // field(name, label, control, hint?) -> the control; errors for `name` (or `name[i]`) show below it.
  field(name, label, control, hint) {
    const id = control.id || nextId('f-' + name.replace(/[^a-z0-9]/gi, ''));
    control.id = id;
    if (!control.name) control.name = name;
    const err = h('p', { class: 'field-error', id: id + '-err', hidden: true });
    const hintEl = hint ? h('p', { class: 'hint', id: id + '-hint' }, hint) : null;
    if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
    const isCheck = control.type === 'checkbox';
    const wrap = isCheck
      ? h('div', { class: 'field field-check' }, control, h('label', { for: id }, label), hintEl, err)
      : h('div', { class: 'field' }, h('label', { for: id }, label), control, hintEl, err);
    this.slots.set(name, { control, err, hintEl });
    return wrap;
  }

  clearErrors() {
    for (const { control, err, hintEl } of this.slots.values()) {
      err.hidden = true;
      err.textContent = '';
      control.removeAttribute('aria-invalid');
      if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
      else control.removeAttribute('aria-describedby');
    }
    this.status.textContent = '';
    this.status.className = 'form-status';
  }

  // Shows an ApiError: next to its field when the form has it, else in the form's status line.
  showError(e) {
    const field = e.field || '';
    const base = field.replace(/\[\d+\]$/, '');
    const slot = this.slots.get(field) || this.slots.get(base);
    const words = describe(e);
    if (slot) {
      slot.err.textContent = words;
      slot.err.hidden = false;
      slot.control.setAttribute('aria-invalid', 'true');
      const ids = [slot.hintEl && slot.hintEl.id, slot.err.id].filter(Boolean).join(' ');
      slot.control.setAttribute('aria-describedby', ids);
      slot.control.focus();
      this.say('error', 'Not saved: see the field marked below.');
    } else {
      this.say('error', words);
    }
  }

  say(kind, text) {
    this.status.className = `form-status note-${kind}`;
    this.status.textContent = text;
  }

  // onSubmit(async fn): runs fn on submit with errors cleared; an ApiError thrown is shown.
  onSubmit(fn) {
    this.el.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      if (this.busy) return;
      this.busy = true;
      this.clearErrors();
      const buttons = this.el.querySelectorAll('button');
      buttons.forEach((b) => { b.disabled = true; });
      try {
        await fn();
      } catch (e) {
        if (e && e.status !== undefined) this.showError(e);
        else this.say('error', String(e && e.message ? e.message : e));
      } finally {
        this.busy = false;
        buttons.forEach((b) => { b.disabled = false; });
      }
    });
    return this;
  }
}

const WORDS = {
  missing_field: 'This is required.',
  conflict: 'This conflicts with what is stored.',
  csrf_check_failed: 'The server refused the request as coming from another site. Reload the page.',
  not_signed_in: 'Your session has ended. Sign in again.',
  network_error: 'The server could not be reached.',
};

export function describe(e) {
  if (e.message && e.message !== e.code) return e.message;
  return WORDS[e.code] || `The server answered ${e.status} (${e.code}).`;
}

export function input(props = {}) {
  return h('input', { type: 'text', ...props });
}

export function select(options, value, props = {}) {
  return h('select', props, options.map(([v, label]) => h('option', { value: v, selected: String(v) === String(value ?? '') }, label)));
}

export function checkbox(checked, props = {}) {
  return h('input', { type: 'checkbox', checked: !!checked, ...props });
}

export function button(text, props = {}) {
  return h('button', { type: 'button', ...props }, text);
}

export function submit(text, props = {}) {
  return h('button', { type: 'submit', class: 'primary', ...props }, text);
}

// RFC 3339 (UTC) <-> <input type="datetime-local"> value, always read as UTC.
export function toLocalInput(iso) {
  return iso ? String(iso).slice(0, 19) : '';
}

export function fromLocalInput(v) {
  if (!v) return null;
  return v.length === 16 ? `${v}:00Z` : `${v}Z`;
}

export function pager({ total, limit, offset }, go) {
  const from = total === 0 ? 0 : offset + 1;
  const to = Math.min(offset + limit, total);
  const label = `${from}–${to} of ${total}`;
  return h('nav', { class: 'pager', 'aria-label': 'Pages' },
    button('Previous', { disabled: offset <= 0, onclick: () => go(Math.max(0, offset - limit)) }),
    h('span', { class: 'pager-pos', 'aria-live': 'polite' }, label),
    button('Next', { disabled: offset + limit >= total, onclick: () => go(offset + limit) }));
}
