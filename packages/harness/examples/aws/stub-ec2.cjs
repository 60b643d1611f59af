// A setup module (the functions file's "setup" field) that stubs Amazon EC2 for a widget run by the harness:
// DescribeInstances answers with three running instances, RebootInstances succeeds. It uses
// aws-sdk-client-mock, so the widget's own code runs unchanged and makes no network call. trellis-harness
// installs aws-sdk-client-mock as an optional dependency; a copy of this module in your project needs its own:
//   npm install --save-dev aws-sdk-client-mock
const { mockClient } = require('aws-sdk-client-mock');
const { EC2Client, DescribeInstancesCommand, RebootInstancesCommand } = require('@aws-sdk/client-ec2');

const instance = (id, name, type, zone) => ({
  InstanceId: id,
  InstanceType: type,
  State: { Name: 'running' },
  Placement: { AvailabilityZone: zone },
  Tags: [{ Key: 'Name', Value: name }],
});

mockClient(EC2Client)
  .on(DescribeInstancesCommand)
  .resolves({
    Reservations: [
      { Instances: [instance('i-0a1b2c3d4e5f00001', 'web-1', 't3.micro', 'us-east-1a'), instance('i-0a1b2c3d4e5f00002', 'web-2', 't3.micro', 'us-east-1b')] },
      { Instances: [instance('i-0a1b2c3d4e5f00003', 'batch', 'c6g.large', 'us-east-1c')] },
    ],
  })
  .on(RebootInstancesCommand)
  .resolves({});
