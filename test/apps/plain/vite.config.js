export default { base: './', logLevel: 'warn' };
