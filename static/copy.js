// A "Copy" button beside a read-only field (data-copy names the field's id): the TO pastes ABR's conclusion code
// on ABR. Without the clipboard API the field's text is selected, ready for the usual copy.
document.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-copy]');
  if (!button) return;
  const field = document.getElementById(button.dataset.copy);
  if (!field) return;
  field.select();
  if (navigator.clipboard) {
    navigator.clipboard.writeText(field.value).then(() => { button.textContent = 'Copied'; }, () => {});
  }
});
