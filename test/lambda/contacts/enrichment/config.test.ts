import { DEFAULT_PLATFORM_NAME, platformName } from '../../../../lambda/contacts/enrichment/config';

test("enrichment's provider is PLATFORM_NAME when set, else the platform's default name: never a data source's", () => {
  expect(platformName({ PLATFORM_NAME: 'Acme CRM' })).toBe('Acme CRM');
  expect(platformName({})).toBe(DEFAULT_PLATFORM_NAME);
  expect(platformName({ PLATFORM_NAME: '' })).toBe(DEFAULT_PLATFORM_NAME);
});
