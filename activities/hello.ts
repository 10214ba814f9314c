export function createHelloActivities(deps: { prefix: string }) {
  return {
    async greet(name: string): Promise<string> {
      return `${deps.prefix}, ${name}!`;
    },
  };
}
