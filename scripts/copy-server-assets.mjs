// The compiled server reads its SQL migrations from beside its own files.
import { cpSync } from 'node:fs';
cpSync('server/store/migrations', 'dist/node/server/store/migrations', { recursive: true });
