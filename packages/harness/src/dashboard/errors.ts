/** One PutDashboard-style validation message: a JSON pointer into the dashboard and what is wrong there. */
export interface ValidationMessage {
  dataPath: string;
  message: string;
}

/**
 * What went wrong, in the terms an HTTP layer maps to a status: `validation` → 400, `not-found` → 404,
 * `unprocessable` → 422, `over-budget` → 413.
 */
export type DashboardErrorKind = 'validation' | 'not-found' | 'unprocessable' | 'over-budget';

/**
 * Base class of every error the interpreter throws for bad input. Nothing is changed when one is thrown.
 *
 * @example
 * try { await dashboard.readWidget('abc'); }
 * catch (e) { if (e instanceof DashboardError && e.kind === 'not-found') console.log(e.message); }
 */
export class DashboardError extends Error {
  readonly kind: DashboardErrorKind;
  constructor(kind: DashboardErrorKind, message: string) {
    super(message);
    this.name = 'DashboardError';
    this.kind = kind;
  }
}

/**
 * The dashboard JSON does not parse or does not validate; `validationMessages` lists every problem found.
 *
 * @example
 * catch (e) { if (e instanceof DashboardValidationError) e.validationMessages; // [{ dataPath: '/widgets/0/width', message: '…' }] }
 */
export class DashboardValidationError extends DashboardError {
  constructor(readonly validationMessages: ValidationMessage[]) {
    const first = validationMessages[0];
    const more = validationMessages.length > 1 ? ` (and ${validationMessages.length - 1} more)` : '';
    super('validation', `The dashboard is invalid: ${first ? `${first.dataPath || '/'}: ${first.message}` : 'unknown problem'}${more}`);
    this.name = 'DashboardValidationError';
  }
}

/** What a `NotFoundError` did not find. */
export type NotFoundTarget = 'dashboard' | 'widget' | 'action';

/**
 * An unknown dashboard id, widget id or action index (or an action text that matches no action).
 *
 * @example
 * catch (e) { if (e instanceof NotFoundError) e.target; // 'widget' }
 */
export class NotFoundError extends DashboardError {
  constructor(
    readonly target: NotFoundTarget,
    message: string,
  ) {
    super('not-found', message);
    this.name = 'NotFoundError';
  }
}

/**
 * A request that names something real but cannot be applied: a bad state field, a form value, a widget type
 * that cannot be read, an action that cannot run. `field` names the offending field (`theme`, `forms.color`, `type`).
 *
 * @example
 * catch (e) { if (e instanceof UnprocessableError) e.field; // 'theme' }
 */
export class UnprocessableError extends DashboardError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super('unprocessable', message);
    this.name = 'UnprocessableError';
  }
}

/**
 * A new dashboard would take the harness past what it keeps: its total budget of dashboard bytes, or its number
 * of dashboards, and the dashboards that would have to go to make room are in use (used within the last
 * 60 s, or with an operation in progress). Nothing stored is dropped. `budget` names the limit;
 * `retryAfterSeconds` says when room comes back if nothing uses those dashboards before then (null when that
 * waits on operations in progress, or when the dashboard alone passes the budget).
 *
 * @example
 * catch (e) { if (e instanceof OverBudgetError) e.budget; // 'maxDashboardBytes' }
 */
export class OverBudgetError extends DashboardError {
  constructor(
    readonly budget: 'maxDashboardBytes' | 'maxDashboards',
    readonly limit: number,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super('over-budget', message);
    this.name = 'OverBudgetError';
  }
}
