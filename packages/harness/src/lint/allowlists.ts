// The console model's vocabulary: DOMPurify's default allowlists (as of 3.4), lowercased, plus what the
// console adds (cwdb-action with its attributes, target) and forbids (iframe, SVG use).
const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));

const HTML_TAGS =
  'a abbr acronym address area article aside audio b bdi bdo big blink blockquote body br button canvas caption ' +
  'center cite code col colgroup content data datalist dd decorator del details dfn dialog dir div dl dt element em ' +
  'fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 head header hgroup hr html i img input ins kbd label ' +
  'legend li main map mark marquee menu menuitem meter nav nobr ol optgroup option output p picture pre progress q rp ' +
  'rt ruby s samp search section select shadow slot small source spacer span strike strong style sub summary sup ' +
  'table tbody td template textarea tfoot th thead time tr track tt u ul var video wbr';
const SVG_TAGS =
  'svg a altglyph altglyphdef altglyphitem animatecolor animatemotion animatetransform circle clippath defs desc ' +
  'ellipse filter font g glyph glyphref hkern image line lineargradient marker mask metadata mpath path pattern ' +
  'polygon polyline radialgradient rect stop style switch symbol text textpath title tref tspan view vkern';
const SVG_FILTER_TAGS =
  'feblend fecolormatrix fecomponenttransfer fecomposite feconvolvematrix fediffuselighting fedisplacementmap ' +
  'fedistantlight fedropshadow feflood fefunca fefuncb fefuncg fefuncr fegaussianblur feimage femerge femergenode ' +
  'femorphology feoffset fepointlight fespecularlighting fespotlight fetile feturbulence';
const SVG_DISALLOWED_TAGS =
  'animate color-profile cursor discard font-face font-face-format font-face-name font-face-src font-face-uri ' +
  'foreignobject hatch hatchpath mesh meshgradient meshpatch meshrow missing-glyph script set solidcolor unknown use';
const MATHML_TAGS =
  'math menclose merror mfenced mfrac mglyph mi mlabeledtr mmultiscripts mn mo mover mpadded mphantom mroot mrow ms ' +
  'mspace msqrt mstyle msub msup msubsup mtable mtd mtext mtr munder munderover mprescripts';
const MATHML_DISALLOWED_TAGS =
  'maction maligngroup malignmark mlongdiv mscarries mscarry msgroup mstack msline msrow semantics annotation ' +
  'annotation-xml mprescripts none';

/** Tags the console keeps (before the namespace check). */
export const ALLOWED_TAGS = set(`${HTML_TAGS} ${SVG_TAGS} ${SVG_FILTER_TAGS} ${MATHML_TAGS} cwdb-action`);
/** Tags removed even though an allowlist names them. */
export const FORBIDDEN_TAGS = set('iframe use');
/** Removed tags whose content goes with them (otherwise the content stays in place). */
export const CONTENT_DROPPED_TAGS = set(
  'annotation-xml audio colgroup desc foreignobject head iframe math mi mn mo ms mtext noembed noframes noscript ' +
    'plaintext script selectedcontent style svg template thead title video xmp',
);
export const ALL_SVG_TAGS = set(`${SVG_TAGS} ${SVG_FILTER_TAGS} ${SVG_DISALLOWED_TAGS}`);
export const ALL_MATHML_TAGS = set(`${MATHML_TAGS} ${MATHML_DISALLOWED_TAGS}`);
export const SHARED_SVG_HTML_TAGS = set('title style font a script');
export const MATHML_TEXT_INTEGRATION_POINTS = set('mi mo mn ms mtext');
/** Elements whose text the parser does not read as markup; markup-like text in them is removed. */
export const LITERAL_TEXT_TAGS = set('style script xmp iframe noembed noframes plaintext noscript');
/** HTML elements whose text the serializer writes unescaped. */
export const RAW_TEXT_TAGS = set('style script xmp iframe noembed noframes plaintext');

const HTML_ATTRS =
  'accept action align alt autocapitalize autocomplete autopictureinpicture autoplay background bgcolor border ' +
  'capture cellpadding cellspacing checked cite class clear color cols colspan command commandfor controls ' +
  'controlslist coords crossorigin datetime decoding default dir disabled disablepictureinpicture ' +
  'disableremoteplayback download draggable enctype enterkeyhint exportparts face for headers height hidden high ' +
  'href hreflang id inert inputmode integrity ismap kind label lang list loading loop low max maxlength media method ' +
  'min minlength multiple muted name nonce noshade novalidate nowrap open optimum part pattern placeholder ' +
  'playsinline popover popovertarget popovertargetaction poster preload pubdate radiogroup readonly rel required rev ' +
  'reversed role rows rowspan spellcheck scope selected shape size sizes slot span srclang start src srcset step ' +
  'style summary tabindex title translate type usemap valign value width wrap xmlns';
const SVG_ATTRS =
  'accent-height accumulate additive alignment-baseline amplitude ascent attributename attributetype azimuth ' +
  'basefrequency baseline-shift begin bias by class clip clippathunits clip-path clip-rule color ' +
  'color-interpolation color-interpolation-filters color-profile color-rendering cx cy d dx dy diffuseconstant ' +
  'direction display divisor dominant-baseline dur edgemode elevation end exponent fill fill-opacity fill-rule ' +
  'filter filterunits flood-color flood-opacity font-family font-size font-size-adjust font-stretch font-style ' +
  'font-variant font-weight fx fy g1 g2 glyph-name glyphref gradientunits gradienttransform height href id ' +
  'image-rendering in in2 intercept k k1 k2 k3 k4 kerning keypoints keysplines keytimes lang lengthadjust ' +
  'letter-spacing kernelmatrix kernelunitlength lighting-color local marker-end marker-mid marker-start ' +
  'markerheight markerunits markerwidth maskcontentunits maskunits max mask mask-type media method mode min name ' +
  'numoctaves offset operator opacity order orient orientation origin overflow paint-order path pathlength ' +
  'patterncontentunits patterntransform patternunits pointer-events points preservealpha preserveaspectratio ' +
  'primitiveunits r rx ry radius refx refy repeatcount repeatdur restart result rotate scale seed shape-rendering ' +
  'slope specularconstant specularexponent spreadmethod startoffset stddeviation stitchtiles stop-color ' +
  'stop-opacity stroke-dasharray stroke-dashoffset stroke-linecap stroke-linejoin stroke-miterlimit ' +
  'stroke-opacity stroke stroke-width style surfacescale systemlanguage tabindex tablevalues targetx targety ' +
  'transform transform-origin text-anchor text-decoration text-orientation text-rendering textlength type u1 u2 ' +
  'unicode values vector-effect viewbox visibility version vert-adv-y vert-origin-x vert-origin-y width ' +
  'word-spacing wrap writing-mode xchannelselector ychannelselector x x1 x2 xmlns y y1 y2 z zoomandpan';
const MATHML_ATTRS =
  'accent accentunder align bevelled close columnalign columnlines columnspacing columnspan denomalign depth dir ' +
  'display displaystyle encoding fence frame height href id largeop length linethickness lquote lspace ' +
  'mathbackground mathcolor mathsize mathvariant maxsize minsize movablelimits notation numalign open rowalign ' +
  'rowlines rowspacing rowspan rspace rquote scriptlevel scriptminsize scriptsizemultiplier selection separator ' +
  'separators stretchy subscriptshift supscriptshift symmetric voffset width xmlns';
const XML_ATTRS = 'xlink:href xml:id xlink:title xml:space xmlns:xlink';
/** The console's own additions. `endpoint` is an ARN, not a URL. */
export const ACTION_ATTRS = ['action', 'display', 'endpoint', 'event', 'confirmation'] as const;

export const ALLOWED_ATTRS = set(`${HTML_ATTRS} ${SVG_ATTRS} ${MATHML_ATTRS} ${XML_ATTRS} ${ACTION_ATTRS.join(' ')} target`);
/** Attributes whose values are never read as URLs. */
export const URI_SAFE_ATTRS = set('alt class for id label name pattern placeholder role summary title value style xmlns');
/** Elements that may load `data:` URLs through src/href. */
export const DATA_URI_TAGS = set('audio video img source image track');
