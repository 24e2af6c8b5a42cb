/** The account feature's cached data, under the signed-in person (cleared when they sign out). */
export const accountKeys = {
  all: ['account'] as const,
  devices: () => [...accountKeys.all, 'devices'] as const,
  signInMethods: () => [...accountKeys.all, 'sign-in-methods'] as const,
};
