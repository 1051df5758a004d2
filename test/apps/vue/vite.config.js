import vue from '@vitejs/plugin-vue';

// `assist-*` tags are custom elements, not Vue components (docs/npm.md).
export default {
  base: './',
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('assist-') } } })],
  logLevel: 'warn',
};
