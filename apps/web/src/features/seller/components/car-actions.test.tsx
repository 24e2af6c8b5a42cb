import type { MyListing } from '@carmarket/shared';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { CarActions } from './car-actions';
import { WithdrawDialog } from './withdraw-dialog';

/*
 * A car's buttons in My cars and the dialog that withdraws it (moved from selling.spec.ts): what a
 * withdrawn car can and cannot do, and why; what the dialog says before withdrawing.
 */

const car = (status: MyListing['status']) =>
  ({ _id: 'car-1', name: 'Quiet Hatch', status, advertised: false, sold: false }) as MyListing;

describe('a car’s buttons in My cars', () => {
  it('a withdrawn car cannot be advertised, and says why; it can go back on sale, not be withdrawn again', async () => {
    const onWithdraw = vi.fn();
    const { user } = renderWithApp(
      <CarActions car={car('withdrawn')} onEdit={() => {}} onWithdraw={onWithdraw} />,
    );
    const advertise = screen.getByRole('button', { name: 'Advertise Quiet Hatch' });
    expect(advertise).toHaveAttribute('aria-disabled', 'true');
    expect(advertise).toHaveAccessibleDescription(/^A withdrawn car cannot be advertised/);
    expect(screen.getByRole('button', { name: 'Put Quiet Hatch back on sale' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Withdraw Quiet Hatch' })).not.toBeInTheDocument();
    // Still editable.
    expect(screen.getByRole('button', { name: 'Edit Quiet Hatch' })).not.toHaveAttribute(
      'aria-disabled',
    );
    await user.click(advertise);
    expect(onWithdraw).not.toHaveBeenCalled();
  });

  it('a car on sale can be withdrawn and advertised, with no reason given and no way back needed', () => {
    renderWithApp(<CarActions car={car('available')} onEdit={() => {}} onWithdraw={() => {}} />);
    const advertise = screen.getByRole('button', { name: 'Advertise Quiet Hatch' });
    expect(advertise).not.toHaveAttribute('aria-disabled');
    expect(advertise).toHaveAccessibleDescription('');
    expect(screen.getByRole('button', { name: 'Withdraw Quiet Hatch' })).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Put Quiet Hatch back on sale' }),
    ).not.toBeInTheDocument();
  });
});

describe('withdrawing a car', () => {
  it('says nobody’s booking is closed, and that the car can go back on sale', () => {
    renderWithApp(
      <WithdrawDialog
        car={{ _id: 'car-1', name: 'Quiet Hatch', openBookingsCount: 0 }}
        onClose={() => {}}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Withdraw Quiet Hatch?' });
    expect(dialog).toHaveTextContent('Nobody has an open booking of it.');
    expect(dialog).toHaveTextContent('You can put it back on sale');
    expect(dialog).not.toHaveTextContent('cannot put it back');
    expect(screen.getByRole('button', { name: 'Withdraw car' })).toBeInTheDocument();
  });

  it('says the open bookings will be closed and the buyers told', () => {
    renderWithApp(
      <WithdrawDialog
        car={{ _id: 'car-1', name: 'Quiet Hatch', openBookingsCount: 2 }}
        onClose={() => {}}
      />,
    );
    expect(screen.getByRole('dialog', { name: 'Withdraw Quiet Hatch?' })).toHaveTextContent(
      'Its 2 open bookings will be closed and the buyers told by email; nothing is charged.',
    );
  });
});
