import { expect, test } from '@playwright/test';

import { ACCORD, addCarApi, fromSite, signUpBuyerApi, signUpSellerApi } from './site';

/*
 * Issue 31 part 5 in the browser (decision 033): Fill from VIN on the add-car form, and the car
 * page's line about what its VIN decodes as, with the warning when the seller's details disagree.
 * The server decodes offline (the NHTSA's vPIC data in a process of its own). These page states'
 * axe scans are in a11y-seller-admin.spec.ts.
 */

test.describe('VIN decoding', () => {
  test('Fill from VIN fills in the make, model, year, body and fuel', async ({ page }) => {
    await signUpSellerApi(page.request);
    await page.goto('/dashboard/add-product');
    await expect(page.getByRole('heading', { level: 1, name: 'Add a car' })).toBeVisible();
    const vin = page.getByLabel('VIN (optional)');
    const fill = page.getByRole('button', { name: 'Fill from VIN' });

    // Until the VIN is 17 valid characters, the button says why it cannot decode it.
    await expect(fill).toHaveAttribute('aria-disabled', 'true');
    await expect(fill).toHaveAccessibleDescription(/Type the VIN/);
    await vin.fill('1HGCM82633A00');
    await expect(fill).toHaveAccessibleDescription('A VIN has 17 characters.');

    // The example: its check digit is wrong; the field says so.
    await vin.fill('1HGCM82633A123456');
    await expect(fill).toHaveAccessibleDescription(/check digit/);

    await vin.fill(ACCORD.toLowerCase());
    await expect(fill).not.toHaveAttribute('aria-disabled');
    await fill.click();
    await expect(page.getByLabel('Make', { exact: true })).toHaveValue('Honda');
    await expect(page.getByLabel('Model', { exact: true })).toHaveValue('Accord');
    await expect(page.getByLabel('Model year')).toHaveValue('2003');
    await expect(page.getByLabel('Body type (optional)')).toHaveValue('Coupe');
    await expect(page.getByLabel('Fuel (optional)')).toHaveValue('petrol');
    await expect(vin).toHaveAccessibleDescription(
      'Filled in from the VIN: 2003 Honda Accord EX-V6. Check the fields before you save.',
    );
    // Once the seller changes what was filled away from the VIN's, the note is no longer true.
    await page.getByLabel('Make', { exact: true }).selectOption({ label: 'Other make' });
    await expect(vin).not.toHaveAccessibleDescription(/Filled in from the VIN/);

    // A VIN the data does not know: the field's error says so.
    await vin.fill('11111111111111111');
    await fill.click();
    await expect(vin).toHaveAccessibleDescription(/We could not decode this VIN/);
    await expect(vin).toHaveAttribute('aria-invalid', 'true');
  });

  test('the car page says what the VIN decodes as, and warns when the seller disagrees', async ({
    page,
  }) => {
    await signUpSellerApi(page.request);
    // Decoded once through the API (as Fill from VIN does), the cars listed with it keep it.
    const decoded = await page.request.get(`/api/vin/${ACCORD}`, { headers: fromSite });
    expect(decoded.ok(), await decoded.text()).toBe(true);
    const agrees = await addCarApi(page.request, 'Honda Accord EX-V6 coupe', {
      make: 'Honda',
      model: 'Accord',
      year: 2003,
      vin: ACCORD,
    });
    const disagrees = await addCarApi(page.request, 'Honda Civic coupe', {
      make: 'Honda',
      model: 'Civic',
      year: 2005,
      vin: ACCORD,
    });

    await page.goto(`/listing/${agrees}`);
    const note = page.getByTestId('vin-decoded');
    await expect(note).toHaveText('VIN decodes as 2003 Honda Accord EX-V6');

    // Its own seller is told which of their details differ, to correct them.
    await page.goto(`/listing/${disagrees}`);
    await expect(note).toContainText('VIN decodes as 2003 Honda Accord EX-V6');
    await expect(note).toContainText(
      'Check your listing: its model (Civic) and model year (2005) differ from what the VIN decodes as (2003 Honda Accord EX-V6).',
    );
    await expect(note).not.toContainText('Check with the seller');

    // A buyer is told to check with the seller.
    await page.context().clearCookies();
    await signUpBuyerApi(page.request);
    await page.reload();
    await expect(note).toContainText(
      'Check with the seller: the model and model year in this listing differ from what the VIN decodes as.',
    );
    await expect(note).not.toContainText('Check your listing');
  });
});
