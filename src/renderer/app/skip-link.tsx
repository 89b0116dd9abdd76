// "Skip to content", the first stop of the Tab key: hidden until focused. Not a plain #anchor, which
// the hash router would read as a route.
import classes from './skip-link.module.css'

export function SkipLink({ target }: { target: string }) {
  return (
    <a
      className={classes.skip}
      href={`#${target}`}
      onClick={(e) => {
        e.preventDefault()
        document.getElementById(target)?.focus()
      }}>
      Skip to content
    </a>
  )
}
