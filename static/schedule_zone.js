// The schedule form while the TO never chose a time zone (the server marks the fields with data-browser-zone):
// this device's own zone fills the select and the standard day's hidden field, when the server's list has it.
// The server checks the zone again when the form is saved.
(() => {
  let zone = '';
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ''; } catch (e) { return; }
  if (!zone) return;
  const select = document.querySelector('select[data-browser-zone]');
  const known = select ? Array.from(select.options).some((o) => o.value === zone) : false;
  if (!known) return;
  if (select.value !== zone) {
    select.value = zone;
    const note = document.getElementById('browser-zone-note');
    if (note) note.hidden = false;
  }
  document.querySelectorAll('input[type=hidden][data-browser-zone]').forEach((field) => { field.value = zone; });
})();
