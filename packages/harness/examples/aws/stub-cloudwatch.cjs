// A setup module that stubs Amazon CloudWatch's GetMetricData for a widget run by the harness: every query gets
// four data points spread over the requested time range, with values that differ per query, so a table or
// chart widget has something to show. Uses aws-sdk-client-mock, which trellis-harness installs as an optional
// dependency (a copy of this module in your project needs its own: npm install --save-dev aws-sdk-client-mock).
const { mockClient } = require('aws-sdk-client-mock');
const { CloudWatchClient, GetMetricDataCommand } = require('@aws-sdk/client-cloudwatch');

const POINTS = 4;

function label(query) {
  if (query.Label) return query.Label;
  const metric = query.MetricStat && query.MetricStat.Metric;
  if (!metric) return query.Id;
  const dimensions = (metric.Dimensions || []).map((d) => d.Value).join(' ');
  return dimensions ? `${metric.MetricName} ${dimensions}` : metric.MetricName;
}

mockClient(CloudWatchClient)
  .on(GetMetricDataCommand)
  .callsFake((input) => {
    const start = new Date(input.StartTime).getTime();
    const end = new Date(input.EndTime).getTime();
    const step = (end - start) / POINTS;
    const queries = (input.MetricDataQueries || []).filter((q) => q.ReturnData !== false);
    return {
      MetricDataResults: queries.map((query, q) => {
        const timestamps = [];
        const values = [];
        for (let i = 0; i < POINTS; i++) {
          timestamps.push(new Date(start + step * (i + 1)));
          values.push(Math.round((12.5 * (q + 1) + 3 * i) * 10) / 10);
        }
        return { Id: query.Id, Label: label(query), Timestamps: timestamps, Values: values, StatusCode: 'Complete' };
      }),
    };
  });
