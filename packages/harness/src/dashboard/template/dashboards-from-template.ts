/**
 * The dashboards of a template (`AWS::CloudWatch::Dashboard`): each one's name and its body, the dashboard JSON
 * text with every intrinsic function resolved. A dashboard whose body needs something that exists only in
 * AWS is left out with a warning.
 */
import { DASHBOARD_TYPE, NO_VALUE, type Resolver } from './intrinsics.js';

/**
 * A dashboard a template creates.
 *
 * @example
 * const dashboard: TemplateDashboard = { name: 'service-status', text: '{"widgets":[]}', logicalId: 'Dashboard' };
 */
export interface TemplateDashboard {
  /** `DashboardName`, else `<StackName>-<LogicalId>`. */
  name: string;
  /** The dashboard JSON. */
  text: string;
  logicalId: string;
}

const DASHBOARD_TYPES: ReadonlySet<string> = new Set([DASHBOARD_TYPE]);
/** Dashboard names the console accepts are at most 255 characters. */
const MAX_NAME = 255;

/** Every dashboard the template creates, in template order (those left out are said in `resolver.warnings`). */
export function dashboardsFromTemplate(resolver: Resolver): TemplateDashboard[] {
  return resolver.created(DASHBOARD_TYPES, 'dashboard', (id, resource) => {
    const at = ['Resources', id, 'Properties', 'DashboardBody'];
    const body = resolver.resolve(resource.properties.DashboardBody, at);
    if (typeof body !== 'string') {
      const got = body === undefined || body === NO_VALUE ? 'nothing' : JSON.stringify(body);
      resolver.fail(
        'invalid',
        at,
        `DashboardBody must be a string holding the dashboard JSON (write it with Fn::Sub, or Fn::ToJsonString), got ${got}`,
      );
    }
    return { name: resolver.nameOf(id, 'dashboard').slice(0, MAX_NAME) || id, text: body, logicalId: id };
  });
}
