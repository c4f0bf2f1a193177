// `npm run dev`: the API server (restarting on change) and the Vite dev server with hot reload.
import { spawn } from 'node:child_process';

const children = [
  spawn('npm', ['run', 'dev', '-w', '@pulsecheck/server'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', '@pulsecheck/web'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', stop);
