/**
 * The dashboards of a template (`AWS::CloudWatch::Dashboard`): each one's name and its body, the dashboard JSON
 * text with every intrinsic function resolved. A dashboard whose body needs something that exists only in
 * AWS is left out with a warning.
 */
import { TemplateError } from './errors.js';
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

/** Dashboard names the console accepts are at most 255 characters. */
const MAX_NAME = 255;

/** Every dashboard the template creates, in template order. */
export function dashboardsFromTemplate(resolver: Resolver): { dashboards: TemplateDashboard[]; warnings: string[] } {
  const dashboards: TemplateDashboard[] = [];
  const warnings: string[] = [];
  for (const [id, resource] of resolver.resources) {
    if (resource.type !== DASHBOARD_TYPE) continue;
    if (!resolver.included(id)) {
      warnings.push(`${resolver.where(['Resources', id])}: not created here (its Condition ${resource.condition} is false)`);
      continue;
    }
    const at = ['Resources', id, 'Properties', 'DashboardBody'];
    try {
      const body = resolver.resolve(resource.properties.DashboardBody, at);
      if (typeof body !== 'string') {
        const got = body === undefined || body === NO_VALUE ? 'nothing' : JSON.stringify(body);
        resolver.fail(
          'invalid',
          at,
          `DashboardBody must be a string holding the dashboard JSON (write it with Fn::Sub, or Fn::ToJsonString), got ${got}`,
        );
      }
      let name: string;
      try {
        name = resolver.physicalName(id);
      } catch (error) {
        if (!(error instanceof TemplateError) || error.kind !== 'unresolvable') throw error;
        name = `${resolver.stack.stackName}-${id}`;
        warnings.push(`${error.message}; the dashboard is named ${name} instead`);
      }
      dashboards.push({ name: name.slice(0, MAX_NAME) || id, text: body, logicalId: id });
    } catch (error) {
      if (!(error instanceof TemplateError) || error.kind !== 'unresolvable') throw error;
      warnings.push(`${error.message}; the dashboard ${id} is left out`);
    }
  }
  return { dashboards, warnings };
}
