/** The S3 test server's bucket and key pair (s3rver's built-in account); no Node imports, so workerd tests can read it. */
export const S3_TEST_BUCKET = 'loupe-logs'
export const S3_TEST_KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
