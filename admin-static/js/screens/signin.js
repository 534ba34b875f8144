import { api } from '../api.js';
import { add, h, note } from '../dom.js';
import { Form, input, submit } from '../forms.js';

export async function render(view, ctx) {
  const next = ctx.params.get('next') || '';
  const form = new Form({ label: 'Sign in' });
  const email = input({ type: 'email', autocomplete: 'username', required: true });
  const password = input({ type: 'password', autocomplete: 'current-password', required: true });
  add(form.el, 
    form.field('email', 'Email', email),
    form.field('password', 'Password', password),
    h('div', { class: 'actions' }, submit('Sign in')),
    form.status);
  form.onSubmit(async () => {
    try {
      const s = await api('POST', '/session', { email: email.value, password: password.value }, { quiet401: true });
      ctx.signedIn(s.account);
      ctx.go(next.startsWith('#/') && !next.startsWith('#/signin') ? next : '#/dashboard');
    } catch (e) {
      if (e.code === 'invalid_credentials') form.say('error', 'Wrong email or password.');
      else if (e.code === 'account_not_approved') form.say('error', 'Your account is waiting for approval by an administrator.');
      else if (e.code === 'too_many_attempts') {
        const min = Math.max(1, Math.ceil(Number(e.retryAfter || 60) / 60));
        form.say('error', `Too many failed sign-ins. Try again in ${min} minute${min === 1 ? '' : 's'}.`);
      } else throw e;
    }
  });
  add(view, 
    h('h1', {}, 'Sign in'),
    ctx.params.get('signedOut') ? note('ok', 'You are signed out.') : null,
    next ? note('info', 'Sign in to continue where you were.') : null,
    h('section', { class: 'card narrow' }, form.el,
      h('p', {}, 'No account yet? ', h('a', { href: '#/register' }, 'Register'), '; an administrator approves new accounts.')));
  email.focus();
}
