import typescript from '@rollup/plugin-typescript';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';

const plugins = () => [
  nodeResolve({ browser: true }),
  typescript({ tsconfig: './tsconfig.json', noEmit: false, declaration: false, include: ['src/**/*.ts', 'wire/**/*.ts'] }),
  terser({ ecma: 2020, module: false, format: { comments: false } }),
];

/** The two files a website loads from /widget/v1/: classic scripts, so one tag works anywhere. */
export default [
  {
    input: 'src/assist.ts',
    output: { file: 'dist/widget/v1/assist.js', format: 'iife', sourcemap: true },
    plugins: plugins(),
  },
  {
    input: 'src/beacon/index.ts',
    output: { file: 'dist/widget/v1/assist-analytics.js', format: 'iife', sourcemap: true },
    plugins: plugins(),
  },
];
