// The demo's control: POST /_sandbox/demo/reset has the product that applied the demo history
// (DEMO_HISTORY, on with `npm start`) wipe its side of the demo guild and make the month anew.
import { ControlError } from './control-errors';
import { ok, type Router } from './router';
import type { SandboxServices } from './services';

/** Registers the demo's routes on the control router. */
export function registerDemoControls(router: Router, services: SandboxServices): void {
  router.add('POST', '/demo/reset', 'none', async () => {
    const reset = services.world.demoReset;
    if (!reset) {
      throw new ControlError(
        409,
        'no_demo_history',
        'This sandbox has no demo history to reset: it is made by the product in sandbox mode (npm start) unless DEMO_HISTORY is off.',
      );
    }
    return ok(await reset());
  });
}
