"""The program a Python function's child process runs, playing the part of Lambda's Python runtime.

It imports _HANDLER from LAMBDA_TASK_ROOT, passes a context object, and reports results and errors
({ errorType, errorMessage, stackTrace }) in the same JSON-lines protocol on fd 3 as the Node.js bootstrap.
print and logging output is sent as log lines.
"""
import importlib, io, json, logging, os, socket, sys, threading, time, traceback

# Python puts this file's folder first on the path; a function's imports start at its task root instead.
if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    sys.path.pop(0)

CHANNEL = socket.socket(fileno=3)
READER = CHANNEL.makefile('rb')
LOCK = threading.Lock()
CURRENT = {'request_id': None}


def send_line(text):
    with LOCK:
        CHANNEL.sendall((text + '\n').encode('utf-8'))


def send(obj):
    send_line(json.dumps(obj))


class LogSink(io.RawIOBase):
    def writable(self):
        return True

    def write(self, data):
        data = bytes(data)
        if data:
            send({'t': 'log', 'd': data.decode('utf-8', 'replace')})
        return len(data)


def log_stream():
    return io.TextIOWrapper(LogSink(), encoding='utf-8', write_through=True)


def flush_output():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


sys.stdout = log_stream()
sys.stderr = log_stream()


class RequestIdFilter(logging.Filter):
    def filter(self, record):
        record.aws_request_id = CURRENT['request_id'] or ''
        return True


_formatter = logging.Formatter('[%(levelname)s]\t%(asctime)s.%(msecs)03dZ\t%(aws_request_id)s\t%(message)s', '%Y-%m-%dT%H:%M:%S')
_formatter.converter = time.gmtime
_log_handler = logging.StreamHandler(sys.stdout)
_log_handler.setFormatter(_formatter)
_log_handler.addFilter(RequestIdFilter())
logging.getLogger().addHandler(_log_handler)


class Fault(Exception):
    def __init__(self, error_type, message):
        Exception.__init__(self, message)
        self.error_type = error_type
        self.message = message


class LambdaContext(object):
    def __init__(self, request_id, deadline_ms, arn):
        env = os.environ
        self.function_name = env.get('AWS_LAMBDA_FUNCTION_NAME')
        self.function_version = env.get('AWS_LAMBDA_FUNCTION_VERSION')
        self.invoked_function_arn = arn
        self.memory_limit_in_mb = env.get('AWS_LAMBDA_FUNCTION_MEMORY_SIZE')
        self.aws_request_id = request_id
        self.log_group_name = env.get('AWS_LAMBDA_LOG_GROUP_NAME')
        self.log_stream_name = env.get('AWS_LAMBDA_LOG_STREAM_NAME')
        self.identity = None
        self.client_context = None
        self._deadline_ms = deadline_ms

    def get_remaining_time_in_millis(self):
        return max(0, int(self._deadline_ms - time.time() * 1000))


def error_document(error, skip_frames=0):
    if isinstance(error, Fault):
        return {'errorType': error.error_type, 'errorMessage': error.message, 'stackTrace': []}
    frames = traceback.extract_tb(error.__traceback__)[skip_frames:]
    return {
        'errorType': type(error).__name__,
        'errorMessage': str(error),
        'requestId': CURRENT['request_id'] or '',
        'stackTrace': traceback.format_list(frames),
    }


def setup_files():
    args, files = sys.argv[1:], []
    for i, arg in enumerate(args):
        if arg == '--setup' and i + 1 < len(args):
            files.append(args[i + 1])
    return files


def load_setup(path):
    """Runs a setup module (`--setup <file>`) before the handler is imported, as a module of its own name."""
    import importlib.util
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        raise Fault('Runtime.ImportModuleError', "Unable to run the setup module '%s': %s: %s" % (path, type(e).__name__, e))


def load_handler():
    handler = os.environ.get('_HANDLER', '')
    try:
        module_name, function_name = handler.rsplit('.', 1)
    except ValueError:
        raise Fault('Runtime.MalformedHandlerName', "Bad handler '%s': not enough values to unpack (expected 2, got 1)" % handler)
    task_root = os.environ.get('LAMBDA_TASK_ROOT', os.getcwd())
    module_path = os.path.join(task_root, module_name)
    sys.path.insert(0, task_root)
    sys.path.insert(0, os.path.dirname(module_path))
    for path in setup_files():
        load_setup(path)
    try:
        module = importlib.import_module(os.path.basename(module_path))
    except ImportError as e:
        raise Fault('Runtime.ImportModuleError', "Unable to import module '%s': %s" % (module_name, e))
    except SyntaxError as e:
        raise Fault('Runtime.UserCodeSyntaxError', "Syntax error in module '%s': %s" % (module_name, e))
    fn = getattr(module, function_name, None)
    if fn is None:
        raise Fault('Runtime.HandlerNotFound', "Handler '%s' missing on module '%s'" % (function_name, module_name))
    return fn


def invoke(handler, msg):
    CURRENT['request_id'] = msg.get('requestId')
    context = LambdaContext(msg.get('requestId'), msg.get('deadline', 0), msg.get('arn'))
    try:
        result = handler(msg.get('event'), context)
    except Exception as e:
        flush_output()
        send({'t': 'result', 'id': msg['id'], 'ok': False, 'error': error_document(e, 1)})
        return
    finally:
        flush_output()
        CURRENT['request_id'] = None
    try:
        payload = json.dumps(result, allow_nan=False)
    except (TypeError, ValueError) as e:
        send({'t': 'result', 'id': msg['id'], 'ok': False,
              'error': {'errorType': 'Runtime.MarshalError', 'errorMessage': 'Unable to marshal response: %s' % e, 'stackTrace': []}})
        return
    send_line('{"t":"result","id":%d,"ok":true,"value":%s}' % (msg['id'], payload))


def main():
    try:
        handler = load_handler()
    except Exception as e:
        flush_output()
        send({'t': 'initError', 'error': error_document(e)})
        handler = None
    else:
        flush_output()
        send({'t': 'ready'})
    for line in READER:
        if not line.strip() or handler is None:
            continue
        msg = json.loads(line.decode('utf-8'))
        if msg.get('t') == 'invoke':
            invoke(handler, msg)


main()
