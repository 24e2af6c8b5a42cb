import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

import { ApiForm } from './api-form';

const idle = { formError: null, isSubmitting: false, onSubmit: async () => {} };

function render(props: Partial<Parameters<typeof ApiForm>[0]> = {}): string {
  return renderToStaticMarkup(
    createElement(ApiForm, {
      form: idle,
      heading: createElement('h3', null, 'Change your address'),
      submit: { label: 'Send the confirmation link', busyLabel: 'Sending…' },
      children: createElement('input', { name: 'newEmail' }),
      ...props,
    }),
  );
}

describe('ApiForm', () => {
  it('draws the heading, the fields and the submit button, in that order, for the browser not to validate', () => {
    expect(render()).toBe(
      '<form noValidate="" class="form-stack"><h3>Change your address</h3><input name="newEmail"/>' +
        '<button type="submit" class="button button-primary sm:justify-self-start">Send the confirmation link</button></form>',
    );
  });

  it('puts the message about the whole form above the fields: an alert, then a success', () => {
    const html = render({
      form: { ...idle, formError: { code: 'internal', message: 'We could not send it.' } },
      success: 'We sent a link.',
    });
    expect(html).toMatch(
      /<h3>.*<\/h3><div role="alert"[^>]*>.*We could not send it\..*<div role="status"[^>]*>.*We sent a link\..*<input/,
    );
  });

  it('shows the busy words on a disabled button while the form is sent', () => {
    expect(render({ form: { ...idle, isSubmitting: true } })).toMatch(
      /<button type="submit"[^>]*disabled=""[^>]*aria-busy="true">.*Sending…<\/button>/,
    );
  });
});
