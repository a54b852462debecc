/** The package's version, sent in User-Agent; sdk/test/package.test.ts keeps it equal to package.json's. */
export const version = '0.1.0';
