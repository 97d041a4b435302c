// Django's JavaScript catalog (/jsi18n/, loaded before the modules) defines these globals.
// Every module calls gettext("literal") so that `makemessages -d djangojs` finds its strings.
export const gettext = window.gettext || ((s) => s);
export const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
const djangoInterpolate = window.interpolate;

// fmt(gettext("%(name)s took %(n)s cards"), {name, n})
export function fmt(template, values) {
  if (djangoInterpolate) return djangoInterpolate(template, values, true);
  return template.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
}
