export default function Home() {
  return <p>Минимальная страница React Router</p>;
}
