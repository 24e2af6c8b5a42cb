import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { SandboxPaymentForm } from './sandbox-payment-form';

/** Two years ahead, as a card's expiry year in two and four digits. */
const FUTURE_YEAR = new Date().getFullYear() + 2;
const YY = String(FUTURE_YEAR % 100).padStart(2, '0');

afterEach(() => vi.unstubAllGlobals());

function renderForm(overrides: Partial<Parameters<typeof SandboxPaymentForm>[0]> = {}) {
  const props = {
    clientSecret: 'pi_test_secret_1',
    amount: '$24,500',
    defaultBilling: { name: 'Casey Carbuyer', email: 'casey@example.com' },
    hold: vi.fn(() => Promise.resolve({})),
    onSucceeded: vi.fn(() => Promise.resolve()),
    onCardError: vi.fn(),
    ...overrides,
  };
  const view = renderWithApp(<SandboxPaymentForm {...props} />);
  return {
    ...view,
    props,
    pay: () => screen.getByRole('button', { name: /^Pay|Processing/ }),
    number: () => screen.getByLabelText('Card number'),
    expiry: () => screen.getByLabelText('Expiry (MM/YY)'),
    cvc: () => screen.getByLabelText('CVC'),
  };
}

describe('the sandbox card form (moved from payments.spec.ts and buying.spec.ts)', () => {
  it('offers the test card, fills the billing from the account, and describes its card fields', () => {
    const { number } = renderForm();
    expect(
      screen.getByText(/use 4242 4242 4242 4242, any future date, any CVC/),
    ).toBeInTheDocument();
    expect(number()).toHaveAttribute('autocomplete', 'cc-number');
    expect(number()).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByLabelText('Name on card')).toHaveValue('Casey Carbuyer');
    expect(screen.getByLabelText('Email for the receipt')).toHaveValue('casey@example.com');
  });

  it('keeps a grey Pay button that says what is missing, and pasted card details are tidied', async () => {
    const { user, pay, number, expiry, cvc } = renderForm();
    expect(pay()).toHaveAccessibleName('Pay $24,500');
    expect(pay()).toHaveAttribute('aria-disabled', 'true');
    expect(pay()).toHaveAccessibleDescription(
      'To pay, enter the card number, the expiry date and the CVC.',
    );

    for (const pasted of [
      '4242-4242-4242-4242',
      ' 4242 4242 4242 4242 ',
      '4242 - 4242 - 4242 - 4242',
    ]) {
      await user.clear(number());
      await user.paste(pasted);
      expect(number()).toHaveValue('4242 4242 4242 4242');
    }
    expect(pay()).toHaveAccessibleDescription('To pay, enter the expiry date and the CVC.');

    for (const pasted of [
      `12 / ${YY}`,
      `12 / ${FUTURE_YEAR}`,
      `12/${FUTURE_YEAR}`,
      ` 12/${YY} `,
      `12${YY}`,
      `12-${YY}`,
      `12${FUTURE_YEAR}`,
    ]) {
      await user.clear(expiry());
      await user.paste(pasted);
      expect(expiry(), `"${pasted}"`).toHaveValue(`12/${YY}`);
    }
    await user.clear(expiry());
    await user.paste(`1/${YY}`);
    expect(expiry()).toHaveValue(`01/${YY}`);

    // Typed, a four-digit year is let through and then shortened.
    await user.clear(expiry());
    await user.type(expiry(), `12/${FUTURE_YEAR}`);
    expect(expiry()).toHaveValue(`12/${YY}`);

    // A date that has passed is named, not just refused.
    await user.clear(expiry());
    await user.paste('12/2020');
    expect(expiry()).toHaveValue('12/20');
    await user.type(cvc(), '123');
    expect(pay()).toHaveAttribute('aria-disabled', 'true');
    expect(pay()).toHaveAccessibleDescription('The expiry date 12/20 has passed.');
    expect(screen.getByText('The expiry date 12/20 has passed.')).toBeVisible();

    await user.clear(expiry());
    await user.paste(`12 / ${FUTURE_YEAR}`);
    expect(pay()).not.toHaveAttribute('aria-disabled');
    expect(pay()).toHaveAccessibleDescription('');

    const name = screen.getByLabelText('Name on card');
    await user.clear(name);
    expect(pay()).toHaveAttribute('aria-disabled', 'true');
    expect(pay()).toHaveAccessibleDescription('To pay, enter the name on the card.');
    await user.type(name, 'Casey Carbuyer');
    expect(pay()).not.toHaveAttribute('aria-disabled');
  });

  it('shows a declined card’s message in red and lets the buyer try again from the same button', async () => {
    let answer!: (response: Response) => void;
    const fetchMock = vi.fn(
      (_url: string, _init?: RequestInit) =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { user, pay, number, expiry, cvc, props } = renderForm();
    await user.type(number(), '4000000000000002');
    await user.type(expiry(), `12${YY}`);
    await user.type(cvc(), '123');
    await user.click(pay());

    // While the processor answers: busy, and pressing again sends nothing more.
    expect(pay()).toHaveAccessibleName('Processing…');
    expect(pay()).toHaveAttribute('aria-disabled', 'true');
    expect(pay()).toHaveAttribute('aria-busy', 'true');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await user.click(pay());
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(props.hold).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/payments/sandbox/confirm');
    expect(JSON.parse(init?.body as string)).toMatchObject({
      clientSecret: 'pi_test_secret_1',
      card: { number: '4000000000000002', cvc: '123' },
      billingDetails: { name: 'Casey Carbuyer', email: 'casey@example.com' },
    });

    answer(
      new Response(
        JSON.stringify({
          error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
        }),
        { status: 402, headers: { 'content-type': 'application/json' } },
      ),
    );
    const error = await screen.findByRole('alert');
    expect(error).toHaveTextContent('Your card was declined.');
    expect(error).toHaveClass('text-error');
    expect(props.onCardError).toHaveBeenCalledTimes(1);
    expect(props.onSucceeded).not.toHaveBeenCalled();
    expect(pay()).toHaveAccessibleName('Pay $24,500');
    expect(pay()).not.toHaveAttribute('aria-disabled');
    expect(pay()).toHaveFocus();
  });
});
