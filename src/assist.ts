/** Script-tag entry: defines the global `Assist`. Filled in by the SDK core. */
import { parseWidgetKey } from '../wire/contract.js';

const Assist = { version: '1', parseWidgetKey };
(globalThis as unknown as { Assist: typeof Assist }).Assist ??= Assist;
