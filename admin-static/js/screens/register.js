import { api } from '../api.js';
import { add, h, clear, note } from '../dom.js';
import { Form, input, submit } from '../forms.js';

export async function render(view) {
  const form = new Form({ label: 'Register' });
  const email = input({ type: 'email', autocomplete: 'username', required: true });
  const password = input({ type: 'password', autocomplete: 'new-password', required: true, minlength: 12 });
  const card = h('section', { class: 'card narrow' });
  add(form.el, 
    form.field('email', 'Email', email),
    form.field('password', 'Password', password, 'At least 12 characters.'),
    h('div', { class: 'actions' }, submit('Register')),
    form.status);
  form.onSubmit(async () => {
    const account = await api('POST', '/accounts', { email: email.value, password: password.value });
    add(clear(card), 
      h('h2', {}, 'Waiting for approval'),
      note('ok', `The account ${account.email} is registered and waits for approval.`),
      h('p', {}, 'An administrator approves it on the Accounts screen (or with placardctl account approve). Then you can sign in.'),
      h('p', {}, h('a', { href: '#/signin' }, 'Back to sign-in')));
  });
  add(card, form.el, h('p', {}, 'Already approved? ', h('a', { href: '#/signin' }, 'Sign in')));
  add(view, h('h1', {}, 'Register'), card);
}
