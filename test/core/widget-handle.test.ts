import { expect } from '@esm-bundle/chai';
import { createWidgetHandle, type WidgetController } from '../../src/core/widget-handle.js';

/** A controller that logs every call; `mount` waits for `finishMount()`. */
function fakeWidget(options: { toggle?: boolean; failMount?: boolean } = {}) {
  const calls: string[] = [];
  let finishMount!: () => void;
  const mounted = new Promise<void>((resolve) => (finishMount = resolve));
  const controller: WidgetController = {
    async mount() {
      calls.push('mount:start');
      await mounted;
      if (options.failMount) throw new Error('no target');
      calls.push('mount:done');
    },
    open: () => calls.push('open'),
    close: () => calls.push('close'),
    destroy: () => calls.push('destroy'),
    ...(options.toggle !== false && { toggle: () => calls.push('toggle') }),
  };
  return { calls, controller, finishMount };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('widget handles', () => {
  let errors: unknown[][];
  let originalError: typeof console.error;
  beforeEach(() => {
    errors = [];
    originalError = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
  });
  afterEach(() => {
    console.error = originalError;
  });

  it('queues calls made before the widget is ready and runs them in order once mounted', async () => {
    const widget = fakeWidget();
    const handle = createWidgetHandle('test', async () => widget.controller);
    handle.open().close().toggle();
    expect(handle.mount()).to.equal(handle);
    handle.open();
    await settle();
    expect(widget.calls).to.deep.equal(['mount:start']);
    expect(handle.state).to.equal('mounting');
    widget.finishMount();
    expect(await handle.ready).to.equal(handle);
    expect(widget.calls).to.deep.equal(['mount:start', 'mount:done', 'open', 'close', 'toggle', 'open']);
    expect(handle.state).to.equal('ready');
  });

  it('runs calls at once when ready', async () => {
    const widget = fakeWidget();
    widget.finishMount();
    const handle = createWidgetHandle('test', async () => widget.controller).mount();
    await handle.ready;
    handle.open();
    expect(widget.calls.at(-1)).to.equal('open');
  });

  it('mounts once however often mount() is called', async () => {
    let loads = 0;
    const widget = fakeWidget();
    widget.finishMount();
    const handle = createWidgetHandle('test', async () => {
      loads++;
      return widget.controller;
    });
    handle.mount().mount();
    await handle.ready;
    handle.mount();
    expect(loads).to.equal(1);
    expect(widget.calls.filter((call) => call === 'mount:start')).to.have.length(1);
  });

  it('does nothing before mount() is called', async () => {
    let loads = 0;
    const handle = createWidgetHandle('test', async () => {
      loads++;
      return fakeWidget().controller;
    });
    handle.open();
    await settle();
    expect(loads).to.equal(0);
    expect(handle.state).to.equal('created');
  });

  it('destroy() before ready drops the queue and undoes a mount that finishes later', async () => {
    const widget = fakeWidget();
    const handle = createWidgetHandle('test', async () => widget.controller);
    handle.mount().open();
    await settle();
    handle.destroy();
    widget.finishMount();
    await settle();
    expect(widget.calls).to.deep.equal(['mount:start', 'mount:done', 'destroy']);
    expect(handle.state).to.equal('destroyed');
    handle.open();
    expect(widget.calls.at(-1)).to.equal('destroy');
    let rejected = false;
    await handle.ready.catch(() => (rejected = true));
    expect(rejected).to.equal(true);
  });

  it('destroy() after ready destroys the widget once', async () => {
    const widget = fakeWidget();
    widget.finishMount();
    const handle = createWidgetHandle('test', async () => widget.controller).mount();
    await handle.ready;
    handle.destroy();
    handle.destroy();
    expect(widget.calls.filter((call) => call === 'destroy')).to.have.length(1);
  });

  it('reports a failed mount on the console with its name, drops the queue, and rejects ready', async () => {
    const widget = fakeWidget({ failMount: true });
    widget.finishMount();
    const handle = createWidgetHandle('Assist.chat("acme/help")', async () => widget.controller);
    handle.mount().open();
    let reason: unknown;
    await handle.ready.catch((error) => (reason = error));
    expect((reason as Error).message).to.equal('no target');
    expect(handle.state).to.equal('failed');
    expect(widget.calls).to.not.include('open');
    expect(String(errors[0]![0])).to.contain('[assist] Assist.chat("acme/help")');
  });

  it('reports a controller call that throws without breaking the queue', async () => {
    const widget = fakeWidget();
    widget.finishMount();
    widget.controller.open = () => {
      throw new Error('boom');
    };
    const handle = createWidgetHandle('test', async () => widget.controller);
    handle.mount().open().close();
    await handle.ready;
    expect(widget.calls.at(-1)).to.equal('close');
    expect(errors).to.have.length(1);
  });

  it('warns about toggle() on a widget without it', async () => {
    const warnings: unknown[] = [];
    const originalWarn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    try {
      const widget = fakeWidget({ toggle: false });
      widget.finishMount();
      const handle = createWidgetHandle('Assist.search("acme/docs")', async () => widget.controller).mount();
      await handle.ready;
      handle.toggle();
      expect(String(warnings[0])).to.contain('toggle() applies to the chat widget only');
    } finally {
      console.warn = originalWarn;
    }
  });
});
