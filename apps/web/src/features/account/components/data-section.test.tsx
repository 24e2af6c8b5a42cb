import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { DataSection } from './data-section';

const CALL = 'GET /api/my/data-export';

/** `fetch` stubbed as the server: each call answers with what `answer` gives; calls are kept. */
function serverExports(answer: () => Promise<Response>) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push(`${init?.method ?? 'GET'} ${url}`);
    return answer();
  });
  return calls;
}

const zip = () =>
  new Response(new Blob([new Uint8Array([0x50, 0x4b, 0x03, 0x04])]), {
    status: 200,
    headers: {
      'content-type': 'application/zip',
      'content-disposition': 'attachment; filename="carmarket-my-data-2026-12-07.zip"',
    },
  });

let saved: string[];
beforeEach(() => {
  saved = [];
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:zip');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push(this.download);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('download my data', () => {
  it('says what the limit means, shows that the file is being prepared, then saves it', async () => {
    let send!: (response: Response) => void;
    const calls = serverExports(() => new Promise((resolve) => (send = resolve)));
    const { user } = renderWithApp(<DataSection />);
    const button = screen.getByRole('button', { name: 'Download my data' });
    expect(button).toHaveAccessibleDescription(
      'You can download your data 3 times a day. Each download counts, so keep the file once you have it.',
    );

    await user.click(button);
    const busy = await screen.findByRole('button', { name: 'Preparing your file…' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(saved).toEqual([]);

    send(zip());
    expect(await screen.findByRole('status')).toHaveTextContent('Your file is downloading.');
    expect(saved).toEqual(['carmarket-my-data-2026-12-07.zip']);
    expect(screen.getByRole('button', { name: 'Download my data' })).toBeEnabled();
    expect(calls).toEqual([CALL]);
  });

  it("past the day's limit, shows the server's words of when to come back, and no retry hint", async () => {
    serverExports(async () =>
      Response.json(
        {
          error: {
            code: 'too-many-requests',
            message: 'You can download your data 3 times a day. Try again in 14 hours.',
            retryAfterSeconds: 50_000,
          },
        },
        { status: 429, headers: { 'retry-after': '50000' } },
      ),
    );
    const { user } = renderWithApp(<DataSection />);
    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'You can download your data 3 times a day. Try again in 14 hours.',
    );
    expect(alert).not.toHaveTextContent('You can try again.');
    expect(saved).toEqual([]);
  });

  it('says so when the server cannot be reached, and lets the person try again', async () => {
    let fail = true;
    serverExports(async () => {
      if (fail) throw new TypeError('Failed to fetch');
      return zip();
    });
    const { user } = renderWithApp(<DataSection />);
    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'We could not reach the server. Check your connection and try again. You can try again.',
    );

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your file is downloading.');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(saved).toHaveLength(1);
  });
});
