/** The service version reported by `health`; a unit test keeps it equal to package.json's. */
export const SERVICE_VERSION = '0.1.0'
