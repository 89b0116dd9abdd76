// Tests hash passwords at a token cost: real scrypt (32 MiB, tens of milliseconds) for every user created
// and every login would slow the whole suite. Imported for its effect by the helpers that start servers
// in-process and create users; test/server/auth/password-hash.test.ts checks the real cost.
import { useScryptCost } from '../../src/server/auth/password-hash'

export const TEST_SCRYPT_COST = { N: 16, r: 8, p: 1 }

useScryptCost(TEST_SCRYPT_COST)
